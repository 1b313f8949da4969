/**
 * Token balances that contradict themselves never count as a payment: a reply that hides the
 * pre balance of an existing account (so its whole balance looks received), lists an account
 * twice, or changes an account's mint or owner.
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { BaseUnits } from "../../core/payments/money.ts";
import { ParsedTransaction } from "../../core/payments/parsed-transaction.ts";
import { verifyTransfer } from "../../core/payments/verify-transfer.ts";
import { NOW, payerUsdc, rawTx, STRANGER, USDC_MINT, WALLET } from "../support/parsed-tx.ts";
import { kindOf } from "../support/rejection-kind.ts";

const expect1Usdc = {
  usdcMint: USDC_MINT,
  wallet: WALLET,
  claimed: BaseUnits(1_000_000n),
  now: NOW,
  memo: { prefix: "docschat:", expected: "ref", required: false },
};
/** A 1-unit dust transfer into a wallet account that already holds 50 USDC. */
const dust = () =>
  rawTx({
    tokens: [payerUsdc(1n), { owner: WALLET, mint: USDC_MINT, pre: 50_000_000n, post: 50_000_001n }],
  }) as {
    meta: Record<string, unknown> & {
      preTokenBalances: Array<Record<string, unknown>>;
      postTokenBalances: Array<Record<string, unknown>>;
    };
  };
const decode = (raw: unknown) => Schema.decodeUnknownResult(ParsedTransaction)(raw);
const verify = (raw: unknown) => {
  const tx = decode(raw);
  if (Result.isFailure(tx)) throw new Error("fixture does not decode");
  return verifyTransfer(tx.success, expect1Usdc);
};

describe("inconsistent token balances", () => {
  test("the honest dust transfer is refused as too small", () => {
    const result = verify(dust());
    expect(Result.isFailure(result) && kindOf(result.failure)).toBe("InsufficientAmount");
  });

  test.each([
    ["null", null],
    ["missing", undefined],
  ])("preTokenBalances %s: the reply does not decode (malformed)", (_, value) => {
    const raw = dust();
    if (value === undefined) Reflect.deleteProperty(raw.meta, "preTokenBalances");
    else raw.meta.preTokenBalances = value as never;
    expect(Result.isFailure(decode(raw))).toBe(true);
  });

  test("an empty preTokenBalances for an account that already existed is refused, not read as 50 USDC received", () => {
    const raw = dust();
    raw.meta.preTokenBalances = [];
    const result = verify(raw);
    expect(Result.isFailure(result) && kindOf(result.failure)).toBe("WrongRecipient");
  });

  test("an account listed twice in the post balances is refused", () => {
    const raw = dust();
    raw.meta.postTokenBalances = [...raw.meta.postTokenBalances, raw.meta.postTokenBalances[1]!];
    const result = verify(raw);
    expect(Result.isFailure(result) && kindOf(result.failure)).toBe("WrongRecipient");
  });

  test("an account whose owner changes between pre and post is refused", () => {
    const raw = dust();
    const pre = raw.meta.preTokenBalances[1]!;
    raw.meta.preTokenBalances[1] = { ...pre, owner: STRANGER };
    const result = verify(raw);
    expect(Result.isFailure(result) && kindOf(result.failure)).toBe("WrongRecipient");
  });
});
