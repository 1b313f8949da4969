/** With a volatile ledger, transfers from before the ledger started are refused (no replay after restart). */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { BaseUnits } from "../../core/payments/money.ts";
import { verifyTransfer } from "../../core/payments/verify-transfer.ts";
import { BLOCK_TIME, NOW, USDC_MINT, usdcPayment, WALLET } from "../support/parsed-tx.ts";
import { kindOf, renderedTexts } from "../support/rejection-kind.ts";

const expectation = (notBefore: number | undefined) => ({
  usdcMint: USDC_MINT,
  wallet: WALLET,
  claimed: BaseUnits(10_000n),
  now: NOW,
  memo: { prefix: "docschat:", expected: "ref", required: false },
  notBefore,
});

describe("notBefore (volatile ledger)", () => {
  test("a transfer made before the ledger started is refused as too old, with the reason", () => {
    const result = verifyTransfer(usdcPayment(10_000n), expectation((BLOCK_TIME + 1) * 1000));
    expect(Result.isFailure(result) && kindOf(result.failure)).toBe("TransactionTooOld");
    expect(Result.isFailure(result) && renderedTexts(result.failure).details).toContain(
      "since it last started",
    );
  });

  test("a transfer made at or after the start is accepted; no limit without notBefore", () => {
    expect(Result.isSuccess(verifyTransfer(usdcPayment(10_000n), expectation(BLOCK_TIME * 1000)))).toBe(true);
    expect(Result.isSuccess(verifyTransfer(usdcPayment(10_000n), expectation(undefined)))).toBe(true);
  });
});
