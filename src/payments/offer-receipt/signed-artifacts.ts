/**
 * The offer-receipt extension (x402 `specs/extensions/extension-offer-and-receipt.md`), JWS
 * format: one signed offer per `accepts[]` entry of a PaymentRequired
 * (`extensions["offer-receipt"].info.offers`), and one signed receipt in a successful
 * settlement (`extensions["offer-receipt"].info.receipt`). An offer is valid until its payment
 * request expires. The receipt names the transaction: on Solana the payer already sees it in
 * PAYMENT-RESPONSE, and with it anyone holding the receipt can check the amount on chain.
 */
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { signJws } from "./jws.ts";
import type { ReceiptKey } from "./receipt-key.ts";

export const OFFER_RECEIPT = "offer-receipt";
/** The payload version the extension defines (offers and receipts alike). */
const PAYLOAD_VERSION = 1;

export interface SignedArtifact {
  readonly format: "jws";
  readonly signature: string;
}

const JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

/** The schema of `info` with JWS offers (the spec's §6.3). */
const OFFERS_SCHEMA = {
  $schema: JSON_SCHEMA,
  type: "object",
  properties: {
    offers: {
      type: "array",
      items: {
        type: "object",
        properties: {
          format: { type: "string", const: "jws" },
          acceptIndex: { type: "integer" },
          signature: {
            type: "string",
            description: "JWS compact serialization containing the offer payload",
          },
        },
        required: ["format", "signature"],
      },
    },
  },
  required: ["offers"],
} as const;

const RECEIPT_SCHEMA = {
  $schema: JSON_SCHEMA,
  type: "object",
  properties: {
    receipt: {
      type: "object",
      properties: {
        format: { type: "string", const: "jws" },
        signature: {
          type: "string",
          description: "JWS compact serialization containing the receipt payload",
        },
      },
      required: ["format", "signature"],
    },
  },
  required: ["receipt"],
} as const;

/** The extension of a PaymentRequired: each `accepts[]` entry signed, as of `nowSeconds`. */
export const offersExtension = (required: PaymentRequired, key: ReceiptKey, nowSeconds: number) => ({
  info: {
    offers: required.accepts.map((accepted, acceptIndex) => ({
      format: "jws" as const,
      acceptIndex,
      signature: signJws(
        {
          version: PAYLOAD_VERSION,
          resourceUrl: required.resource.url,
          scheme: accepted.scheme,
          network: accepted.network,
          asset: accepted.asset,
          payTo: accepted.payTo,
          amount: accepted.amount,
          validUntil: nowSeconds + accepted.maxTimeoutSeconds,
        },
        key,
      ),
    })),
  },
  schema: OFFERS_SCHEMA,
});

/** The signed receipt of a successful settlement for `resourceUrl`, issued at `nowSeconds`. */
export const signedReceipt = (
  settlement: Pick<SettleResponse, "network" | "payer" | "transaction">,
  resourceUrl: string,
  key: ReceiptKey,
  nowSeconds: number,
): SignedArtifact => ({
  format: "jws",
  signature: signJws(
    {
      version: PAYLOAD_VERSION,
      network: settlement.network,
      resourceUrl,
      payer: settlement.payer ?? "",
      issuedAt: nowSeconds,
      transaction: settlement.transaction,
    },
    key,
  ),
});

/** The extension of a successful SettleResponse. */
export const receiptExtension = (receipt: SignedArtifact) => ({ info: { receipt }, schema: RECEIPT_SCHEMA });
