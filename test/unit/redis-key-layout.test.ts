/**
 * The Redis store's key names (adapters/store-redis/keys.ts). On one Redis they are the names
 * deployments already hold, byte for byte; on a cluster each is that name behind its hash tag,
 * so moving to a cluster is renaming every key to `{tag}` + its name (docs/deployment.md).
 */
import { describe, expect, test } from "bun:test";
import { answerCacheKeys, keyLayout } from "../../adapters/store-redis/keys.ts";

const SITE = "docs-chat:site:acme:";
const SERVICE = "docs-chat:";

const names = (cluster: boolean) => {
  const keys = keyLayout(SITE, SERVICE, cluster);
  return [
    keys.quota("1.2.3.4"),
    keys.signature("S"),
    keys.payment("pay_1"),
    keys.payerLink("1.2.3.4"),
    keys.session("h"),
    keys.sessionGeneration("W"),
    keys.walletSessions("W"),
    keys.signIns("W"),
    keys.evictableSessions,
    keys.answer("a1"),
    keys.feedback("a1"),
    keys.unattributedAt,
    keys.unattributedEntries,
    keys.paidResult("r"),
    keys.paidResults,
    keys.settlementLock("payer:P"),
    `${keys.sponsorPrefix}sponsor-strikes:W`,
    `${keys.ceilingPrefix}ceiling:free:all`,
    keys.legacyReference("1.2.3.4"),
    keys.signInNonce("n"),
    keys.sealKey,
    keys.insights,
    answerCacheKeys(SITE, cluster).entry("k"),
    answerCacheKeys(SITE, cluster).index,
  ];
};

describe("the Redis store's key names", () => {
  test("on one Redis: the names of before, no hash tag", () => {
    expect(names(false)).toEqual([
      "docs-chat:site:acme:quota:1.2.3.4",
      "docs-chat:sig:S",
      "docs-chat:site:acme:x402:pay_1",
      "docs-chat:site:acme:link:1.2.3.4",
      "docs-chat:site:acme:session:h",
      "docs-chat:site:acme:sessions:W",
      "docs-chat:site:acme:wsessions:W",
      "docs-chat:site:acme:signins:W",
      "docs-chat:site:acme:evictable-sessions",
      "docs-chat:site:acme:answer:a1",
      "docs-chat:site:acme:feedback:a1",
      "docs-chat:site:acme:unattributed:at",
      "docs-chat:site:acme:unattributed:entries",
      "docs-chat:site:acme:pid:r",
      "docs-chat:site:acme:pids",
      "docs-chat:site:acme:lock:payer:P",
      "docs-chat:site:acme:sponsor-strikes:W",
      "docs-chat:site:acme:ceiling:free:all",
      "docs-chat:site:acme:ref:id:1.2.3.4",
      "docs-chat:site:acme:siwx:n",
      "docs-chat:site:acme:seal-key",
      "docs-chat:site:acme:insights:events",
      "docs-chat:site:acme:answer:k",
      "docs-chat:site:acme:answers",
    ]);
  });

  test("on a cluster: each name behind its tag; money and sessions under the service's", () => {
    expect(names(true)).toEqual([
      "{docs-chat:}docs-chat:site:acme:quota:1.2.3.4",
      "{docs-chat:}docs-chat:sig:S",
      "{docs-chat:}docs-chat:site:acme:x402:pay_1",
      "{docs-chat:}docs-chat:site:acme:link:1.2.3.4",
      "{docs-chat:}docs-chat:site:acme:session:h",
      "{docs-chat:}docs-chat:site:acme:sessions:W",
      "{docs-chat:}docs-chat:site:acme:wsessions:W",
      "{docs-chat:}docs-chat:site:acme:signins:W",
      "{docs-chat:}docs-chat:site:acme:evictable-sessions",
      "{docs-chat:site:acme:answer:a1}docs-chat:site:acme:answer:a1",
      "{docs-chat:site:acme:answer:a1}docs-chat:site:acme:feedback:a1",
      "{docs-chat:site:acme:unattributed}docs-chat:site:acme:unattributed:at",
      "{docs-chat:site:acme:unattributed}docs-chat:site:acme:unattributed:entries",
      "{docs-chat:site:acme:pids}docs-chat:site:acme:pid:r",
      "{docs-chat:site:acme:pids}docs-chat:site:acme:pids",
      "{docs-chat:site:acme:lock}docs-chat:site:acme:lock:payer:P",
      "{docs-chat:site:acme:sponsor}docs-chat:site:acme:sponsor-strikes:W",
      "{docs-chat:site:acme:ceiling}docs-chat:site:acme:ceiling:free:all",
      "docs-chat:site:acme:ref:id:1.2.3.4",
      "docs-chat:site:acme:siwx:n",
      "docs-chat:site:acme:seal-key",
      "docs-chat:site:acme:insights:events",
      "{docs-chat:site:acme:answers}docs-chat:site:acme:answer:k",
      "{docs-chat:site:acme:answers}docs-chat:site:acme:answers",
    ]);
  });

  test("a prefix holding a brace is refused on a cluster: the tag must be the first {...}", () => {
    expect(() => keyLayout("a{b}:", SERVICE, true)).toThrow("hold no { or }");
    expect(keyLayout("a{b}:", SERVICE, false).quota("x")).toBe("a{b}:quota:x");
  });
});
