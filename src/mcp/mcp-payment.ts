/**
 * x402 over MCP for the paid tools (the x402 MCP transport, tool-result binding): a tool call
 * carries a v2 PaymentPayload in `params._meta["x402/payment"]`; it is bought through the same
 * entry and credit dialect as /api/chat (verify, hold the payer, reserve, settle, credit once),
 * bound to the payment requests issued for that tool. When nothing is left, the result is `isError` with
 * the v2 PaymentRequired in `structuredContent` and the same JSON as text, with a fresh sign-in
 * challenge in its `extensions` when signing in is offered (as the chat's 402 does).
 */
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, SettleResponse } from "@x402/core/types";
import * as Effect from "effect/Effect";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";
import type { Logger } from "../observability/log.ts";
import { creditRouteTerms, creditTerms } from "../payments/credit-offer.ts";
import type { PricedResource } from "../payments/priced-resources.ts";
import { acceptPayment } from "../payments/server/accept-payment.ts";
import type { CreditDialect, CreditRoute, PaymentRefusal } from "../payments/server/dialect.ts";
import { issuePaymentRequest, paymentRequestOf } from "../payments/server/issue-request.ts";
import { x402Rejection } from "../payments/server/x402-errors.ts";
import type { ExactFacilitator } from "../payments/v2/exact-payment.ts";
import { PAYMENT_RESPONSE_HEADER, PAYMENT_SIGNATURE_HEADER, paymentRequiredOf } from "../payments/v2/wire.ts";
import { signInExtensions } from "../sign-in/advertise.ts";
import { issueChallenge, type SignInSettings } from "../sign-in/wallet-sign-in.ts";

/** The MCP transport's `_meta` keys. */
export const PAYMENT_META = "x402/payment";
export const PAYMENT_RESPONSE_META = "x402/payment-response";

export interface McpPaymentDeps {
  readonly runtime: AppRuntime;
  readonly facilitator: ExactFacilitator | undefined;
  readonly dialects: ReadonlyArray<CreditDialect>;
  /** The MCP endpoint's URL, named as the resource of a PaymentRequired. */
  readonly url: string;
  /** Absent: no sign-in is offered, and the offer carries no challenge. */
  readonly signIn?: SignInSettings | undefined;
}

/** A tool result asking for payment: isError, the PaymentRequired as structured content and text. */
const paymentRequiredResult = (required: PaymentRequired) => ({
  isError: true as const,
  structuredContent: required as unknown as Record<string, unknown>,
  content: [{ type: "text" as const, text: JSON.stringify(required) }],
});

/** A plain error result (nothing to pay, or the payment cannot be offered). */
export const errorResult = (text: string) => ({
  isError: true as const,
  content: [{ type: "text" as const, text }],
});

/** A fresh payment request for the tool `priced` names, as a payment-required result with `message` as its error. */
export const offerPayment = async (deps: McpPaymentDeps, priced: PricedResource, message: string) => {
  const { facilitator } = deps;
  if (facilitator === undefined || !facilitator.sponsor.offered())
    return errorResult(`${message}. Paying over MCP needs x402 v2, which this service does not offer now.`);
  const { signIn } = deps;
  const issued = await runOutcome(
    deps.runtime,
    Effect.all([
      Effect.flatMap(creditTerms(priced), (terms) => issuePaymentRequest(terms, priced.binding)),
      signIn === undefined ? Effect.undefined : issueChallenge(signIn, new URL(deps.url).pathname),
    ]),
  );
  if (!issued.ok)
    return errorResult("Payments are temporarily unavailable; nothing was charged. Try again shortly.");
  const [request, challenge] = issued.value;
  const offer = {
    network: facilitator.network,
    feePayer: facilitator.feePayer.address,
    blockhash: facilitator.feePayer.blockhashHint(),
    paymentIdRequired: facilitator.paymentIdRequired,
    extensions: facilitator.extensions,
  };
  const required = paymentRequiredOf(paymentRequestOf(request), deps.url, offer, message);
  return paymentRequiredResult(
    challenge === undefined
      ? required
      : { ...required, extensions: { ...required.extensions, ...signInExtensions(challenge) } },
  );
};

export type Bought =
  | {
      readonly ok: true;
      readonly settlement: SettleResponse;
      /** What was credited: the queries and the base units they were bought with. */
      readonly queries: number;
      readonly units: bigint;
      /** The wallet credited, whose credits the call then spends. */
      readonly payer: string | undefined;
    }
  | { readonly ok: false; readonly refusal: PaymentRefusal };

/**
 * Buys queries with the PaymentPayload of `_meta["x402/payment"]`, through the credit dialect
 * of /api/chat (a payload that is not one is refused as malformed, never thrown).
 */
export const buyWithPayload = async (
  deps: McpPaymentDeps,
  priced: PricedResource,
  payload: unknown,
  identity: string,
  log: Logger,
): Promise<Bought | undefined> => {
  let header: string;
  try {
    header = encodePaymentSignatureHeader(payload as PaymentPayload);
  } catch {
    header = "malformed";
  }
  // The credit dialects read a request's header: the payload travels as one, unchanged.
  const request = new Request(deps.url, { method: "POST", headers: { [PAYMENT_SIGNATURE_HEADER]: header } });
  // Settings only: completes synchronously.
  const offer = await runOutcome(deps.runtime, creditRouteTerms(priced));
  if (!offer.ok) throw new Error("the tool's offer cannot be built");
  const route: CreditRoute = {
    binding: priced.binding,
    ...offer.value,
    run: async (effect) => runOutcome(deps.runtime, effect),
    identity,
    log,
  };
  const acceptance = await acceptPayment(request, route, deps.dialects);
  if (acceptance.kind === "absent") return undefined;
  if (acceptance.kind === "refused") return { ok: false, refusal: acceptance.error };
  const settlement = decodePaymentResponseHeader(acceptance.headers[PAYMENT_RESPONSE_HEADER] ?? "");
  const { queries, units, payer } = acceptance.credited;
  return { ok: true, settlement, queries, units, payer };
};

/** A refused payment as the tool's result: a fresh offer that names why (expired), or the reason. */
export const refusedResult = async (
  deps: McpPaymentDeps,
  priced: PricedResource,
  refusal: PaymentRefusal,
) => {
  if (refusal._tag !== "PaymentRejected")
    return errorResult(
      "Payment verification is temporarily unavailable; nothing was charged. Send the same payment again shortly.",
    );
  const { body } = x402Rejection(refusal);
  return offerPayment(
    deps,
    priced,
    `${body.Message} (${refusal.reason}): ${String(body.Details.hint ?? "")}`.trim(),
  );
};
