/** A valid x402 payment request and authorization, for tests that vary one field at a time. */
import { encodeBase58 } from "../../core/base58.ts";
import type { PaymentAuthorization, PaymentRequest } from "../../core/payments/x402.ts";
import type { IssuedPayment } from "../../core/payments/x402-ledger.ts";
import { PAYER, USDC_MINT, WALLET } from "./parsed-tx.ts";

export const request: PaymentRequest = {
  max_amount_required: "0.10",
  asset_type: "SPL",
  asset_address: USDC_MINT,
  payment_address: WALLET,
  network: "chain-devnet",
  expires_at: "2025-06-01T12:05:00Z",
  nonce: "n0nce_abcdef12",
  payment_id: "pay_0123456789abcdef",
  resource: "/premium-data",
  description: "Premium data",
};
export const authorization: PaymentAuthorization = {
  payment_id: "pay_0123456789abcdef",
  actual_amount: "0.10",
  payment_address: WALLET,
  asset_address: USDC_MINT,
  network: "chain-devnet",
  timestamp: "2025-06-01T12:01:00.123+02:00",
  signature: encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => i + 3)),
  public_key: PAYER,
  transaction_hash: encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => 200 - i)),
};

/** A stored payment request of 0.10 USDC for GET /premium-data, paid by `authorization`, expiring at `expiresAt`. */
export const issuedPayment = (expiresAt: number): IssuedPayment => ({
  paymentId: authorization.payment_id,
  nonce: request.nonce,
  resource: "/premium-data",
  method: "GET",
  units: 100_000n,
  payTo: WALLET,
  mint: USDC_MINT,
  network: "chain-devnet",
  expiresAt,
  description: "Premium data",
});
