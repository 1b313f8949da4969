/**
 * x402's payment-identifier on the wire: the declaration every 402 carries in `extensions`
 * (the spec's schema; `required` from X402_PAYMENT_ID_REQUIRED), and the id a PaymentPayload
 * echoes back in `extensions["payment-identifier"].info.id`. The rule is
 * core/payments/payment-identifier.ts; paid-once.ts applies it.
 */
import { decodePaymentSignatureHeader } from "@x402/core/http";
import {
  isPaymentId,
  PAYMENT_ID_MAX_LENGTH,
  PAYMENT_ID_MIN_LENGTH,
  PAYMENT_IDENTIFIER,
} from "../../../core/payments/payment-identifier.ts";

/** As wire.ts: a payload holds one transaction, its header is far below this. */
const MAX_HEADER_CHARS = 8192;

/** The `extensions` member declaring payment-identifier, as the spec writes it. */
export const paymentIdentifierExtensions = (required: boolean) => ({
  [PAYMENT_IDENTIFIER]: {
    info: { required },
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        required: { type: "boolean" },
        id: {
          type: "string",
          minLength: PAYMENT_ID_MIN_LENGTH,
          maxLength: PAYMENT_ID_MAX_LENGTH,
          pattern: "^[a-zA-Z0-9_-]+$",
        },
      },
      required: ["required"],
    },
  },
});

/** What a payload says about its payment identifier. */
export type NamedPayment =
  | { readonly kind: "unnamed" }
  | { readonly kind: "invalid" }
  | { readonly kind: "named"; readonly id: string };

/** The id a decoded PaymentPayload (an object) carries, if any, and whether it is well formed. */
export const paymentIdOf = (payload: unknown): NamedPayment => {
  if (typeof payload !== "object" || payload === null) return { kind: "unnamed" };
  const extensions: unknown = (payload as { extensions?: unknown }).extensions;
  if (typeof extensions !== "object" || extensions === null) return { kind: "unnamed" };
  const extension: unknown = (extensions as Record<string, unknown>)[PAYMENT_IDENTIFIER];
  if (typeof extension !== "object" || extension === null) return { kind: "unnamed" };
  const info: unknown = (extension as { info?: unknown }).info;
  if (typeof info !== "object" || info === null) return { kind: "unnamed" };
  const id: unknown = (info as { id?: unknown }).id;
  if (id === undefined) return { kind: "unnamed" };
  return typeof id === "string" && isPaymentId(id) ? { kind: "named", id } : { kind: "invalid" };
};

/** The id of a PAYMENT-SIGNATURE header; unnamed when it does not decode (its dialect refuses it then). */
export const paymentIdOfHeader = (header: string): NamedPayment => {
  if (header.length > MAX_HEADER_CHARS) return { kind: "unnamed" };
  try {
    return paymentIdOf(decodePaymentSignatureHeader(header.trim()));
  } catch {
    return { kind: "unnamed" };
  }
};
