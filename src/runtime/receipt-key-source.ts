/** The key that signs x402 offers and receipts: X402_RECEIPT_SIGNING_KEY, else the demo's kept seed, else none. */
import * as Redacted from "effect/Redacted";
import type { AppConfig } from "../../core/config/config.ts";
import { type ReceiptKey, receiptKeyOf } from "../payments/offer-receipt/receipt-key.ts";

/** Named by did:web of PUBLIC_ORIGIN when it is set (its /.well-known/did.json lists the key), else by did:key. */
export const receiptKeyFor = (
  config: Pick<AppConfig, "x402Agents" | "surface">,
  demoSeed: Uint8Array | undefined,
): ReceiptKey | undefined => {
  const configured = config.x402Agents.receiptSigningKey;
  const seed = configured === undefined ? demoSeed : Redacted.value(configured);
  return seed === undefined ? undefined : receiptKeyOf(seed, config.surface.publicOrigin);
};
