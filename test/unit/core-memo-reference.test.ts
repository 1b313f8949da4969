/**
 * A memo reference is sealed, not stored: 16 base58 characters of an HMAC of the site's memo
 * prefix and the client's identity under the shared seal key. The expected values below were
 * worked out apart from this code (HMAC-SHA256 of "memo-reference\n<prefix>\n<identity>", the
 * 256-bit mac modulo 58^16 written in 16 base58 digits). A transfer also carries, for a while, a
 * random reference the store handed out before references were sealed: both are the claimant's,
 * and another client's of either kind is refused.
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { hmacSeal } from "../../adapters/shared/hmac-seal.ts";
import { memoReference } from "../../core/payments/memo-reference.ts";
import { MEMO_PREFIX, siteMemoPrefix } from "../../core/payments/payment-settings.ts";
import { verifyTransfer } from "../../core/payments/verify-transfer.ts";
import { BLOCK_TIME, expectation, usdcPayment } from "../support/parsed-tx.ts";

const seal = hmacSeal("11".repeat(32));
const ALPHA = siteMemoPrefix("alpha");

describe("memoReference", () => {
  test("is the HMAC of site and identity, in 16 base58 characters", () => {
    expect(memoReference(seal.mac, MEMO_PREFIX, "203.0.113.7")).toBe("K9u1C67MCv9GbNrC");
    expect(memoReference(seal.mac, MEMO_PREFIX, "2001:db8:0:1::/64")).toBe("3tqESnUYM7CZD25g");
  });

  test("differs by site and by key, and is the same every time it is asked", () => {
    expect(memoReference(seal.mac, ALPHA, "203.0.113.7")).toBe("NtB96S6SSQfZnoQf");
    expect(memoReference(hmacSeal("22".repeat(32)).mac, MEMO_PREFIX, "203.0.113.7")).toBe("cfmbdW3RoR4NFNsb");
    expect(memoReference(seal.mac, MEMO_PREFIX, "203.0.113.7")).toBe("K9u1C67MCv9GbNrC");
  });

  test("every character of the alphabet turns up, and the length never varies", () => {
    const refs = Array.from({ length: 2000 }, (_, i) =>
      memoReference(seal.mac, MEMO_PREFIX, `10.0.${i >> 8}.${i & 255}`),
    );
    for (const ref of refs) expect(ref).toMatch(/^[1-9A-HJ-NP-Za-km-z]{16}$/);
    expect(new Set(refs).size).toBe(2000);
    expect(new Set(refs.join("")).size).toBe(58);
  });
});

describe("verifyTransfer with a sealed and a stored reference", () => {
  const SEALED = "K9u1C67MCv9GbNrC";
  const STORED = "Rk3nTz8Qw2pLx9Vb";
  // The claimant was handed STORED before references were sealed; another client, nothing.
  const check = (memo: string, prefix = MEMO_PREFIX, legacy: string | null = STORED) => {
    const result = verifyTransfer(
      usdcPayment(100_000n, { blockTime: BLOCK_TIME, memos: [memo] }),
      expectation(100_000n, { prefix, expected: SEALED, legacy: legacy ?? undefined, required: true }),
    );
    return Result.isFailure(result) ? result.failure.reason : "ok";
  };

  test("either of the claimant's references is accepted, in every form its site takes", () => {
    expect(check(`docschat:${SEALED}`)).toBe("ok");
    expect(check(`docschat:${STORED}`)).toBe("ok");
    expect(check(`docschat:alpha:${STORED}`, ALPHA)).toBe("ok");
    expect(check(`docschat:${STORED}`, ALPHA)).toBe("ok");
    expect(check(`docschat:alpha:${SEALED}`, ALPHA)).toBe("ok");
  });

  test("another client's reference, sealed or stored, is MEMO_MISMATCH; another site's names it", () => {
    expect(check("docschat:3tqESnUYM7CZD25g")).toBe("memo-mismatch");
    expect(check(`docschat:${STORED}`, MEMO_PREFIX, null)).toBe("memo-mismatch");
    expect(check(`docschat:alpha:${SEALED}`)).toBe("memo-other-site");
    expect(check(`docschat:${STORED}`, ALPHA, null)).toBe("memo-other-site");
  });
});
