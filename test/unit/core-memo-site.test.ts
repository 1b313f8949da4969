/**
 * Memos name their site: `docschat:<site>:<reference>` (the default site's `docschat:<reference>`).
 * A transfer carrying another site's reference is refused as that site's, naming it; a memo that
 * names no valid site id is another client's as before; a hosted site still takes the memo its
 * references were written with before memos named their site (`docschat:<reference>`), so a
 * visitor paying with a reference noted before the upgrade is credited, not refused twice.
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { MEMO_PREFIX, memoSite, memosFor, siteMemoPrefix } from "../../core/payments/payment-settings.ts";
import { verifyTransfer } from "../../core/payments/verify-transfer.ts";
import { BLOCK_TIME, expectation, usdcPayment } from "../support/parsed-tx.ts";

const ALPHA = siteMemoPrefix("alpha");

describe("memoSite: the site a memo of this service names", () => {
  test("another hosted site's, or the default site's", () => {
    expect(memoSite("docschat:alpha:Rk3n", MEMO_PREFIX, "Other")).toBe("alpha");
    expect(memoSite("docschat:Rk3n", ALPHA, "Mine")).toBe("default");
    expect(memoSite("docschat:beta:Rk3n", ALPHA, "Mine")).toBe("beta");
  });

  test("none for the site's own memo, in either form on a hosted site", () => {
    expect(memoSite("docschat:Mine", MEMO_PREFIX, "Mine")).toBeUndefined();
    expect(memoSite("docschat:alpha:Mine", ALPHA, "Mine")).toBeUndefined();
    expect(memoSite("docschat:Mine", ALPHA, "Mine")).toBeUndefined();
    // Another client's reference of the same site is no other site's.
    expect(memoSite("docschat:Theirs", MEMO_PREFIX, "Mine")).toBeUndefined();
    expect(memoSite("docschat:alpha:Theirs", ALPHA, "Mine")).toBeUndefined();
  });

  test("none for text that names no valid site id, nor for other prefixes", () => {
    for (const memo of ["docschat::x", "docschat:a:b:c", "docschat:Alpha:x", "docschat:a b:x", "x402:pay_1"])
      expect([memo, memoSite(memo, MEMO_PREFIX, "Mine")]).toEqual([memo, undefined]);
    expect(memoSite("docschat:alpha:Rk3n", "x402:", "pay_1")).toBeUndefined();
  });

  test("memosFor: the legacy form only for a hosted site's own prefix", () => {
    expect(memosFor(MEMO_PREFIX, "R")).toEqual(["docschat:R"]);
    expect(memosFor(ALPHA, "R")).toEqual(["docschat:alpha:R", "docschat:R"]);
    expect(memosFor("x402:", "pay_1")).toEqual(["x402:pay_1"]);
  });
});

describe("verifyTransfer with site memos", () => {
  const tx = (memo: string) => usdcPayment(100_000n, { blockTime: BLOCK_TIME, memos: [memo] });
  const check = (memo: string, prefix: string, expected: string) =>
    verifyTransfer(tx(memo), expectation(100_000n, { prefix, expected }));
  const reason = (result: ReturnType<typeof check>) =>
    Result.isFailure(result) ? result.failure.reason : "ok";

  test("a hosted site takes its reference in the memo written before memos named the site", () => {
    expect(reason(check("docschat:ref-abc123", ALPHA, "ref-abc123"))).toBe("ok");
    expect(reason(check("docschat:alpha:ref-abc123", ALPHA, "ref-abc123"))).toBe("ok");
  });

  test("another site's reference is refused as that site's, with its id", () => {
    const refused = check("docschat:beta:ref-abc123", MEMO_PREFIX, "ref-zzz");
    expect(reason(refused)).toBe("memo-other-site");
    expect(Result.isFailure(refused) ? refused.failure.site : undefined).toBe("beta");
  });

  test("a memo naming no site is another client's (MEMO_MISMATCH), as before", () => {
    expect(reason(check("docschat::x", MEMO_PREFIX, "ref-zzz"))).toBe("memo-mismatch");
    expect(reason(check("docschat:a:b:c", MEMO_PREFIX, "ref-zzz"))).toBe("memo-mismatch");
  });
});
