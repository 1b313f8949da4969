/**
 * x402 v2 on the wire, through the official `@x402/core` codecs and schemas: the
 * PAYMENT-REQUIRED offer built from the payment request we issued, the PAYMENT-SIGNATURE
 * payload decoded and validated, the PAYMENT-RESPONSE receipt. The offer's `extra.memo` is
 * `x402:<payment_id>`: the official client signs it into the transaction, which binds the
 * transfer to one issued request (route, method, price) the same way the spec's dialect does.
 */
import { decodePaymentSignatureHeader } from "@x402/core/http";
import { PaymentPayloadV2Schema } from "@x402/core/schemas";
import type { PaymentRequired, PaymentRequirements, SettleResponse } from "@x402/core/types";
import * as Result from "effect/Result";
import { parseDecimalUnits } from "../../../core/payments/money.ts";
import { type PaymentRequest, paymentMemo } from "../../../core/payments/x402.ts";
import type { X402Extensions } from "./extensions-hook.ts";
import { encodeHeaderJson } from "./header-json.ts";
import { paymentIdentifierExtensions } from "./payment-identifier-wire.ts";

export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_SIGNATURE_HEADER = "PAYMENT-SIGNATURE";
export const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";
/** x402's non-terminal settle result (@x402/svm's ErrSettlementPending): sent, not confirmed yet. */
export const SETTLEMENT_PENDING = "settlement_pending";
/**
 * A payload holds one transaction (at most 1232 bytes) and echoes the 402's resource and
 * extensions (bazaar, signed offers, sign-in): /api/chat's is about 7,400 characters. Bun
 * refuses request headers past 16 KiB in all, so this bound is below that.
 */
const MAX_HEADER_CHARS = 12_288;

/** The CAIP-2 id of a Solana cluster: `solana:` and the first 32 characters of its genesis hash. */
export const solanaNetworkId = (genesisHash: string): SolanaNetworkId => `solana:${genesisHash.slice(0, 32)}`;
export type SolanaNetworkId = `solana:${string}`;

export interface ExactOffer {
  readonly network: SolanaNetworkId;
  readonly feePayer: string;
  /** A recent blockhash of the settling RPC, offered as the scheme's optional hint. */
  readonly blockhash?: { readonly blockhash: string; readonly lastValidBlockHeight: bigint } | undefined;
  /** Whether the 402 declares the payment identifier required (payment-identifier.ts). */
  readonly paymentIdRequired?: boolean | undefined;
  /** What a 402 carries beside the terms (bazaar, signed offers); absent: the terms alone. */
  readonly extensions?: X402Extensions | undefined;
}

/** The PAYMENT-REQUIRED header offering `request` in the exact scheme. */
export const paymentRequiredHeader = (
  request: PaymentRequest,
  url: string,
  offer: ExactOffer,
  error: string,
  extensions?: Readonly<Record<string, unknown>>,
) => {
  const required = paymentRequiredOf(request, url, offer, error);
  // Added last, after the offer is signed (the sign-in challenge, advertise.ts).
  const extended =
    extensions === undefined
      ? required
      : { ...required, extensions: { ...required.extensions, ...extensions } };
  return { [PAYMENT_REQUIRED_HEADER]: encodeHeaderJson(extended) };
};

/** What the exact scheme asks for, whether in a live 402 (with its request's memo) or in the discovery manifest. */
export const exactRequirements = (terms: {
  readonly units: bigint;
  readonly asset: string;
  readonly payTo: string;
  readonly maxTimeoutSeconds: number;
  readonly offer: ExactOffer;
  readonly memo?: string;
}): PaymentRequirements => {
  const { offer } = terms;
  return {
    scheme: "exact",
    network: offer.network,
    amount: terms.units.toString(),
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: {
      feePayer: offer.feePayer,
      ...(terms.memo === undefined ? {} : { memo: terms.memo }),
      ...(offer.blockhash === undefined
        ? {}
        : {
            recentBlockhash: offer.blockhash.blockhash,
            lastValidBlockHeight: offer.blockhash.lastValidBlockHeight.toString(),
          }),
    },
  };
};

/** The x402 v2 PaymentRequired offering `request` in the exact scheme (a header's, or an MCP result's). */
export const paymentRequiredOf = (
  request: PaymentRequest,
  url: string,
  offer: ExactOffer,
  error: string,
): PaymentRequired => {
  const required: PaymentRequired = {
    x402Version: 2,
    error,
    resource: { url, description: request.description, mimeType: "application/json" },
    accepts: [
      exactRequirements({
        units: Result.getOrThrow(parseDecimalUnits(request.max_amount_required)),
        asset: request.asset_address,
        payTo: request.payment_address,
        maxTimeoutSeconds: Math.max(1, Math.round((Date.parse(request.expires_at) - Date.now()) / 1000)),
        offer,
        memo: paymentMemo(request.payment_id),
      }),
    ],
    extensions: { ...paymentIdentifierExtensions(offer.paymentIdRequired ?? false) },
  };
  return offer.extensions === undefined ? required : offer.extensions.offered(required, request.resource);
};

/** The transaction of a PAYMENT-SIGNATURE header for the exact scheme on `network`; undefined when it is not one. */
export const exactTransactionOf = (header: string, network: string): string | undefined => {
  if (header.length > MAX_HEADER_CHARS) return undefined;
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header.trim());
  } catch {
    return undefined;
  }
  const parsed = PaymentPayloadV2Schema.safeParse(decoded);
  if (!parsed.success) return undefined;
  const { accepted, payload } = parsed.data;
  if (accepted.scheme !== "exact" || accepted.network !== network) return undefined;
  const transaction = (payload as { transaction?: unknown }).transaction;
  return typeof transaction === "string" ? transaction : undefined;
};

/** The PAYMENT-RESPONSE header of a settlement. */
export const paymentResponseHeader = (response: SettleResponse) => ({
  [PAYMENT_RESPONSE_HEADER]: encodeHeaderJson(response),
});
