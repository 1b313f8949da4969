/**
 * `npm run x402 -- --v2`: pays an x402 v2 offer (PAYMENT-REQUIRED, scheme exact on Solana) with
 * the official client, the payment named with an x402 payment identifier, and resends the very
 * same PAYMENT-SIGNATURE after a network error (up to three sends): a server that speaks
 * payment-identifier answers the resend with the first response, charged once.
 */
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { x402Client } from "@x402/fetch";
import { ExactSvmScheme } from "@x402/svm/exact/client";

type Signer = ConstructorParameters<typeof ExactSvmScheme>[0];

/** Sends of one paid request: the first and two resends of the same payload after network errors. */
const PAID_ATTEMPTS = 3;

export interface ExactPayment {
  /** The 402 (its PAYMENT-REQUIRED header is the offer). */
  readonly offered: Response;
  /** The paid request again, with the payment header added. */
  readonly send: (headers: Headers) => Promise<Response>;
  readonly headers: Headers;
  /** Who pays the offer (undefined: nobody here can). */
  readonly payerFor: (required: PaymentRequired) => Promise<{ signer: Signer; rpcUrl: string }>;
  /** The most one payment may be, in base units. */
  readonly maxUnits: bigint;
  readonly log: (line: string) => void;
}

export type ExactOutcome =
  | { readonly kind: "paid"; readonly response: Response; readonly body: string }
  | { readonly kind: "not-offered" }
  | { readonly kind: "above-max"; readonly amount: string };

/** Pays the offer and sends the request with it, again after a network error. */
export const payExact = async (payment: ExactPayment): Promise<ExactOutcome> => {
  const header = payment.offered.headers.get("PAYMENT-REQUIRED");
  if (header === null) return { kind: "not-offered" };
  const required = decodePaymentRequiredHeader(header);
  const [offer] = required.accepts;
  if (offer === undefined) return { kind: "not-offered" };
  if (BigInt(offer.amount) > payment.maxUnits) return { kind: "above-max", amount: offer.amount };
  const payer = await payment.payerFor(required);
  const client = new x402Client().register(
    "solana:*",
    new ExactSvmScheme(payer.signer, { rpcUrl: payer.rpcUrl }),
  );
  client.setSpendControls({
    allowedAssets: [
      { network: "solana:*", asset: offer.asset, maxAmountPerPayment: payment.maxUnits.toString() },
    ],
  });
  // Named where the offer declares payment-identifier, so a resend after a network error is one payment.
  const id = generatePaymentId();
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    paymentRequired.extensions = appendPaymentIdentifierToExtensions(paymentRequired.extensions ?? {}, id);
  });
  const signature = encodePaymentSignatureHeader(await client.createPaymentPayload(required));
  payment.log(`paying ${offer.amount} base units of ${offer.asset} with x402 v2, payment id ${id}`);
  const headers = new Headers(payment.headers);
  headers.set("PAYMENT-SIGNATURE", signature);
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await payment.send(headers);
      // The body is part of the answer: a connection lost while reading it is a network error too.
      const body = await response.text();
      const settled = response.headers.get("PAYMENT-RESPONSE");
      if (settled !== null)
        payment.log(`settlement: ${JSON.stringify(decodePaymentResponseHeader(settled))}`);
      return { kind: "paid", response, body };
    } catch (error) {
      if (attempt >= PAID_ATTEMPTS) throw error;
      payment.log(
        `network error (${error instanceof Error ? error.message : String(error)}): sending the same payment again`,
      );
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
};
