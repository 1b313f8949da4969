import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { verifyTransfer } from "../../core/payments/verify-transfer.ts";
import { DAY_MS } from "../../core/time.ts";
import {
  BLOCK_TIME,
  expectation,
  failure,
  MEMO_PREFIX,
  NOW,
  OTHER_MINT,
  PAYER,
  parsedTx,
  payerUsdc,
  STRANGER,
  USDC_MINT,
  usdcPayment,
  WALLET,
} from "../support/parsed-tx.ts";

describe("verifyTransfer refuses the wrong transfer", () => {
  test("SOL sent to the wallet instead of USDC", () => {
    const tx = parsedTx({ lamports: [{ account: WALLET, pre: 1_000_000, post: 11_000_000 }] });
    expect(tx.meta?.postTokenBalances).toEqual([]);
    expect(failure(verifyTransfer(tx, expectation(10_000n)), "WrongToken").error).toContain("SOL");
  });

  test("another token to the wallet", () => {
    const tx = parsedTx({
      tokens: [
        { owner: PAYER, mint: OTHER_MINT, pre: 5_000_000n, post: 4_900_000n },
        { owner: WALLET, mint: OTHER_MINT, pre: 0n, post: 100_000n },
      ],
    });
    expect(failure(verifyTransfer(tx, expectation(100_000n)), "WrongToken").error).toContain("not USDC");
  });

  test("USDC to a token account another owner holds", () => {
    const tx = parsedTx({
      tokens: [payerUsdc(100_000n), { owner: STRANGER, mint: USDC_MINT, pre: 0n, post: 100_000n }],
    });
    expect(failure(verifyTransfer(tx, expectation(100_000n)), "WrongRecipient").error).toContain(
      "not owned by the service wallet",
    );
  });

  test("a transaction that moves nothing to the wallet", () => {
    failure(verifyTransfer(parsedTx({ tokens: [] }), expectation(10_000n)), "WrongRecipient");
  });

  test("USDC moved between two accounts of the wallet itself counts as nothing", () => {
    const tx = parsedTx({
      tokens: [
        { owner: WALLET, mint: USDC_MINT, pre: 500_000n, post: 400_000n },
        { owner: WALLET, mint: USDC_MINT, pre: 0n, post: 100_000n },
      ],
    });
    failure(verifyTransfer(tx, expectation(100_000n)), "WrongRecipient");
  });

  test("split over two wallet accounts but short in total", () => {
    const tx = parsedTx({
      tokens: [
        payerUsdc(98_999n),
        { owner: WALLET, mint: USDC_MINT, pre: 0n, post: 49_000n },
        { owner: WALLET, mint: USDC_MINT, pre: 1n, post: 50_000n },
      ],
    });
    failure(verifyTransfer(tx, expectation(100_000n)), "InsufficientAmount");
  });

  test("a mint with other than 6 decimals posing as the configured USDC mint", () => {
    const tx = parsedTx({
      tokens: [
        { owner: PAYER, mint: USDC_MINT, pre: 5_000_000n, post: 4_900_000n, decimals: 9 },
        { owner: WALLET, mint: USDC_MINT, pre: 0n, post: 100_000n, decimals: 9 },
      ],
    });
    expect(failure(verifyTransfer(tx, expectation(100_000n)), "WrongToken").error).toContain("6 decimals");
  });
});

describe("verifyTransfer refuses transactions in the wrong state", () => {
  test("unknown signature (RPC returned null)", () => {
    expect(failure(verifyTransfer(undefined, expectation(10_000n)), "TransactionNotFound").details).toContain(
      "retry",
    );
  });

  test("meta null: not confirmed", () => {
    failure(
      verifyTransfer(usdcPayment(10_000n, { noMeta: true }), expectation(10_000n)),
      "TransactionNotConfirmed",
    );
  });

  test("blockTime null: not confirmed", () => {
    failure(
      verifyTransfer(usdcPayment(10_000n, { blockTime: null }), expectation(10_000n)),
      "TransactionNotConfirmed",
    );
  });

  test("meta.err set: failed, even though the balances claim a transfer", () => {
    const tx = usdcPayment(10_000n, { err: { InstructionError: [0, { Custom: 1 }] } });
    failure(verifyTransfer(tx, expectation(10_000n)), "TransactionFailed");
  });

  test("older than 29 days", () => {
    const tx = usdcPayment(10_000n, { blockTime: BLOCK_TIME - 30 * 86_400 });
    expect(NOW - (BLOCK_TIME - 30 * 86_400) * 1000).toBeGreaterThan(29 * DAY_MS);
    failure(verifyTransfer(tx, expectation(10_000n)), "TransactionTooOld");
  });
});

describe("verifyTransfer memo rule", () => {
  const claim = 10_000n;
  test("our memo with the caller's reference is accepted", () => {
    const tx = usdcPayment(claim, { memos: [`${MEMO_PREFIX}ref-abc123`] });
    expect(Result.isSuccess(verifyTransfer(tx, expectation(claim, { required: true })))).toBe(true);
  });

  test("our memo inside an inner instruction counts too", () => {
    const tx = usdcPayment(claim, { innerMemos: [`${MEMO_PREFIX}ref-abc123`] });
    expect(Result.isSuccess(verifyTransfer(tx, expectation(claim, { required: true })))).toBe(true);
    const other = usdcPayment(claim, { innerMemos: [`${MEMO_PREFIX}ref-other`] });
    failure(verifyTransfer(other, expectation(claim)), "MemoMismatch");
  });

  test("our memo with another client's reference is refused, required or not", () => {
    const tx = usdcPayment(claim, { memos: [`${MEMO_PREFIX}ref-someone-else`] });
    failure(verifyTransfer(tx, expectation(claim)), "MemoMismatch");
    failure(verifyTransfer(tx, expectation(claim, { required: true })), "MemoMismatch");
  });

  test("a foreign memo (no prefix) is ignored", () => {
    const tx = usdcPayment(claim, { memos: ["thanks for the docs!", "ref-someone-else"] });
    expect(Result.isSuccess(verifyTransfer(tx, expectation(claim)))).toBe(true);
    failure(verifyTransfer(tx, expectation(claim, { required: true })), "MemoRequired");
  });

  test("memo required but absent", () => {
    failure(verifyTransfer(usdcPayment(claim), expectation(claim, { required: true })), "MemoRequired");
  });

  test("no memo when not required is fine", () => {
    expect(Result.isSuccess(verifyTransfer(usdcPayment(claim), expectation(claim)))).toBe(true);
  });
});
