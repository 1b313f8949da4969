import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { checkStatedTerms, checkTransferAuthority } from "../../core/payments/x402-binding.ts";
import { OTHER_MINT, PAYER, parsedTx, payerUsdc, STRANGER, USDC_MINT, WALLET } from "../support/parsed-tx.ts";
import { authorization, issuedPayment } from "../support/x402-samples.ts";

const issued = issuedPayment(Date.UTC(2030, 0, 1));
const reasonOf = (result: Result.Result<void, { readonly reason: string }>) =>
  Result.isFailure(result) ? result.failure.reason : "ok";

describe("stated terms: the client's words must be the issued ones", () => {
  test("the sample authorization matches", () => {
    expect(reasonOf(checkStatedTerms(authorization, issued))).toBe("ok");
    expect(reasonOf(checkStatedTerms({ ...authorization, actual_amount: "0.100000" }, issued))).toBe("ok");
    expect(reasonOf(checkStatedTerms({ ...authorization, actual_amount: "5" }, issued))).toBe("ok");
  });

  for (const [field, value] of [
    ["payment_address", STRANGER],
    ["asset_address", OTHER_MINT],
    ["network", "chain-mainnet"],
    ["network", "chain-testnet"],
    ["actual_amount", "0.099999"],
    ["actual_amount", "0"],
    // More than 6 decimals cannot be an amount of this token.
    ["actual_amount", "0.1000001"],
  ] as const) {
    test(`${field}=${value} is refused as a mismatch`, () => {
      const result = checkStatedTerms({ ...authorization, [field]: value }, issued);
      expect(reasonOf(result)).toBe("authorization-mismatch");
      if (Result.isFailure(result)) expect(result.failure.claimed).toBe(100_000n);
    });
  }
});

describe("transfer authority: every transfer into the recipient is made by public_key", () => {
  const tokens = [payerUsdc(100_000n), { owner: WALLET, mint: USDC_MINT, pre: 0n, post: 100_000n }];
  const terms = { payTo: WALLET, mint: USDC_MINT, authority: PAYER };

  test("a transfer by the payer", () => {
    expect(reasonOf(checkTransferAuthority(parsedTx({ tokens }), terms))).toBe("ok");
  });

  test("a transfer by someone else, or by a multisig", () => {
    const byStranger = parsedTx({ tokens, transfers: [{ amount: 100_000n, to: 1, authority: STRANGER }] });
    expect(reasonOf(checkTransferAuthority(byStranger, terms))).toBe("transfer-authority-mismatch");
    const byMultisig = parsedTx({ tokens, transfers: [{ amount: 100_000n, to: 1, authority: null }] });
    expect(reasonOf(checkTransferAuthority(byMultisig, terms))).toBe("transfer-authority-mismatch");
  });

  test("one foreign transfer among the payer's is refused", () => {
    const mixed = parsedTx({
      tokens,
      transfers: [
        { amount: 60_000n, to: 1 },
        { amount: 40_000n, to: 1, authority: STRANGER },
      ],
    });
    expect(reasonOf(checkTransferAuthority(mixed, terms))).toBe("transfer-authority-mismatch");
  });

  test("no transfer into the recipient at all", () => {
    expect(reasonOf(checkTransferAuthority(parsedTx({ tokens, transfers: [] }), terms))).toBe(
      "transfer-authority-mismatch",
    );
  });

  test("transfers to other owners' accounts do not count", () => {
    const elsewhere = parsedTx({
      tokens: [...tokens, { owner: STRANGER, mint: USDC_MINT, pre: 0n, post: 5n }],
      transfers: [
        { amount: 100_000n, to: 1 },
        { amount: 5n, to: 2, authority: STRANGER },
      ],
    });
    expect(reasonOf(checkTransferAuthority(elsewhere, terms))).toBe("ok");
  });
});
