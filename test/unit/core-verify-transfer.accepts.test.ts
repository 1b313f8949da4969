import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { verifyTransfer } from "../../core/payments/verify-transfer.ts";
import { DAY_MS } from "../../core/time.ts";
import {
  BLOCK_TIME,
  expectation,
  failure,
  parsedTx,
  payerUsdc,
  USDC_MINT,
  usdcPayment,
  WALLET,
} from "../support/parsed-tx.ts";

type Verified = ReturnType<typeof verifyTransfer>;

const received = (result: Verified): bigint => {
  if (Result.isFailure(result)) throw new Error(`expected success, got ${result.failure._tag}`);
  return result.success.received;
};

describe("verifyTransfer accepts", () => {
  test("a USDC transfer of the claimed amount to the wallet", () => {
    const result = verifyTransfer(usdcPayment(100_000n), expectation(100_000n));
    expect(received(result)).toBe(100_000n);
    expect(Result.getOrUndefined(result)?.blockTime).toBe(BLOCK_TIME);
  });

  test("a transfer into a token account created in the same transaction (no pre balance)", () => {
    const tx = parsedTx({
      tokens: [payerUsdc(50_000n), { owner: WALLET, mint: USDC_MINT, pre: undefined, post: 50_000n }],
    });
    expect(tx.meta?.preTokenBalances?.some((b) => b.owner === WALLET)).toBe(false);
    expect(received(verifyTransfer(tx, expectation(50_000n)))).toBe(50_000n);
  });

  test("two transfers into one account in one transaction, summed", () => {
    const tx = parsedTx({
      tokens: [payerUsdc(100_000n), { owner: WALLET, mint: USDC_MINT, pre: 0n, post: 100_000n }],
      transfers: [
        { amount: 60_000n, to: 1 },
        { amount: 40_000n, to: 1 },
      ],
    });
    expect(tx.transaction.message.instructions.length).toBe(2);
    expect(received(verifyTransfer(tx, expectation(100_000n)))).toBe(100_000n);
  });

  test("several token accounts of the wallet, summed", () => {
    const tx = parsedTx({
      tokens: [
        payerUsdc(100_000n),
        { owner: WALLET, mint: USDC_MINT, pre: 7n, post: 49_507n },
        { owner: WALLET, mint: USDC_MINT, pre: undefined, post: 49_500n },
      ],
    });
    expect(received(verifyTransfer(tx, expectation(100_000n)))).toBe(99_000n);
  });

  test("more than claimed", () => {
    expect(received(verifyTransfer(usdcPayment(250_000n), expectation(100_000n)))).toBe(250_000n);
  });

  test("a transaction exactly 29 days old, not one millisecond older", () => {
    const tx = usdcPayment(10_000n);
    const atLimit = { ...expectation(10_000n), now: BLOCK_TIME * 1000 + 29 * DAY_MS };
    expect(received(verifyTransfer(tx, atLimit))).toBe(10_000n);
    failure(verifyTransfer(tx, { ...atLimit, now: atLimit.now + 1 }), "TransactionTooOld");
  });
});

describe("verifyTransfer tolerance (claim minus 1%, rounded up)", () => {
  const cases: ReadonlyArray<readonly [bigint, bigint, boolean]> = [
    [100_000n, 100_000n, true],
    [100_000n, 99_001n, true],
    [100_000n, 99_000n, true],
    [100_000n, 98_999n, false],
    [10_000n, 9_900n, true],
    [10_000n, 9_899n, false],
    [1_000_000n, 990_000n, true],
    [1_000_000n, 989_999n, false],
  ];
  for (const [claimed, sent, ok] of cases) {
    test(`claim ${claimed}, received ${sent}: ${ok ? "accepted" : "refused"}`, () => {
      const result = verifyTransfer(usdcPayment(sent), expectation(claimed));
      if (ok) expect(received(result)).toBe(sent);
      else expect(failure(result, "InsufficientAmount").error).toContain("lower than claimed");
    });
  }

  test("the refusal names both amounts in USDC", () => {
    const error = failure(verifyTransfer(usdcPayment(98_999n), expectation(100_000n)), "InsufficientAmount");
    expect(error.error).toContain("0.098999");
    expect(error.error).toContain("0.10");
  });
});
