/**
 * /api/chat speaks the HTTP 402 protocol in-band. When the quota is exhausted, the 402 body is a
 * full payment request (issued and stored like the paywall's) plus the chat's own fields
 * (rateLimit, payment, success, error, code), so clients of either way of paying keep working.
 * A request carrying a payment proof (X-Payment-Authorization, or x402 v2's PAYMENT-SIGNATURE)
 * buys the queries it paid for (at the price of a question, credited in the same atomic step that consumes
 * the payment) through the paywall's entry and dialects of src/payments/, and is then answered
 * in the same call. This file renders what the dialects decide in the chat's words.
 */
import * as Effect from "effect/Effect";
import type { Context } from "hono";
import type { PaymentRejected } from "../../core/payments/payment-rejected.ts";
import { PaymentSettings } from "../../core/payments/payment-settings.ts";
import type { X402Code } from "../../core/payments/x402.ts";
import type { ChainUnavailable } from "../../core/ports/chain-reader.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { AppEnv } from "../hono-kit/app-env.ts";
import type { InsightsRecorder } from "../hono-kit/insights-recorder.ts";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";
import type { Metrics } from "../observability/metrics.ts";
import { creditRouteTerms, creditTerms } from "../payments/credit-offer.ts";
import { REJECTIONS, retryAfterOf } from "../payments/payment-rejections.ts";
import { CHAT_BINDING, chatResource } from "../payments/priced-resources.ts";
import { acceptPayment, paymentOffer } from "../payments/server/accept-payment.ts";
import { specCreditDialect } from "../payments/server/credit-spec-dialect.ts";
import type { CreditDialect, CreditRoute } from "../payments/server/dialect.ts";
import { issuePaymentRequest, paymentRequestOf } from "../payments/server/issue-request.ts";
import { withHeaders } from "../payments/server/spec-dialect.ts";
import { x402Rejection } from "../payments/server/x402-errors.ts";
import { exactCreditDialect } from "../payments/v2/credit-exact-dialect.ts";
import type { ExactFacilitator } from "../payments/v2/exact-payment.ts";
import { receiptInHeaders } from "../payments/v2/x402-extensions.ts";
import { signInExtensions } from "../sign-in/advertise.ts";
import { linkPayer } from "../sign-in/payer-link.ts";
import type { WalletAccessDeps } from "../sign-in/wallet-access-header.ts";
import { issueChallenge } from "../sign-in/wallet-sign-in.ts";
import {
  errorResponse,
  QUOTA_EXHAUSTED_TEXT,
  quotaExhaustedBody,
  unavailableResponse,
} from "./error-response.ts";
import type { AppError } from "./error-status.ts";

export { CHAT_BINDING };

/** The chat as sold at the settings' price of a question (its 402 asks the smallest purchase). */
const chatPriced = Effect.map(PaymentSettings, (terms) => chatResource(terms.unitsPerQuery));

/** A fresh payment request for the chat, on the service's payment terms. */
const chatOffer = chatPriced.pipe(
  Effect.flatMap(creditTerms),
  Effect.flatMap((terms) => issuePaymentRequest(terms, CHAT_BINDING)),
);

/**
 * A 402 with a fresh payment request in every dialect, a fresh sign-in challenge when signing in
 * is offered, and `fields` (the chat's own); 503 when either cannot be issued.
 */
const offerPayment = async (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  code: X402Code,
  fields: Readonly<Record<string, unknown>>,
  details: Readonly<Record<string, unknown>> = {},
) => {
  const issued = await runOutcome(deps.runtime, chatOffer);
  if (!issued.ok) return unavailableResponse(c, issued.error);
  const signIn = deps.access.signIn;
  const challenge =
    signIn === undefined ? undefined : await runOutcome(deps.runtime, issueChallenge(signIn, CHAT_PATH));
  if (challenge !== undefined && !challenge.ok) return unavailableResponse(c, challenge.error);
  const message = typeof fields.error === "string" ? fields.error : QUOTA_EXHAUSTED_TEXT;
  // A 402 advertises signing in beside paying, in both dialects (advertise.ts).
  const signInOffer = challenge === undefined ? undefined : signInExtensions(challenge.value);
  // The chat's own path on this site (`/sites/<id>/api/chat` on the service's host names).
  const request = { ...paymentRequestOf(issued.value), resource: `${c.env.basePath}${CHAT_PATH}` };
  const offer = paymentOffer(
    deps.dialects,
    request,
    c.req.url,
    { code, message, details },
    message,
    signInOffer,
  );
  if (signInOffer === undefined) return c.json({ ...offer.body, ...fields }, 402, offer.headers);
  return c.json({ ...offer.body, ...fields, extensions: signInOffer }, 402, offer.headers);
};

/** Where the chat is served; a sign-in challenge names it as its resource. */
const CHAT_PATH = "/api/chat";

export interface ChatPaymentDeps {
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  readonly paidDailyCap: number;
  readonly recorder: InsightsRecorder;
  /** The ways to buy queries, asked in order (the spec's header, then x402 v2 when offered). */
  readonly dialects: ReadonlyArray<CreditDialect>;
  /** Sessions and sign-in (the 402 offers a challenge when signing in is configured). */
  readonly access: WalletAccessDeps;
}

/** The chat's dialects: the spec's X-Payment-Authorization, then x402 v2 when a facilitator runs. */
export const chatDialects = (
  facilitator: ExactFacilitator | undefined,
  metrics: Metrics,
): ReadonlyArray<CreditDialect> => [
  specCreditDialect(),
  ...(facilitator === undefined
    ? []
    : [
        exactCreditDialect({
          ...facilitator,
          onSettlementFailed: () => metrics.count("x402_settlement_failures_total"),
        }),
      ]),
];

/** A chat error as its response: an exhausted quota is a 402 offering a payment request. */
export const chatErrorResponse = (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  error: Exclude<AppError, PaymentRejected>,
): Response | Promise<Response> => {
  if (error._tag !== "QuotaExhausted") return errorResponse(c, error, deps.paidDailyCap);
  deps.metrics.count("chat_payment_required_total");
  c.env.log.info("quota exhausted", { identity: c.env.identity });
  return offerPayment(c, deps, "PAYMENT_REQUIRED", quotaExhaustedBody(error, c.env.basePath));
};

export type Bought =
  | {
      readonly ok: true;
      readonly headers: Readonly<Record<string, string>>;
      /** The wallet credited, whose credits the request then spends first. */
      readonly payer: string | undefined;
    }
  | { readonly ok: false; readonly response: Response };

/**
 * Buys the queries the request's payment proof pays for, through the paywall's entry
 * (acceptPayment): the receipt header to answer with, the refusal, or undefined when the
 * request carries no proof.
 */
export const buyQueries = async (c: Context<AppEnv>, deps: ChatPaymentDeps): Promise<Bought | undefined> => {
  const identity = c.env.identity;
  const log = c.env.log;
  // Settings only: completes synchronously.
  const offer = await runOutcome(deps.runtime, Effect.flatMap(chatPriced, creditRouteTerms));
  if (!offer.ok) throw new Error("the chat's offer cannot be built");
  const route: CreditRoute = {
    binding: CHAT_BINDING,
    ...offer.value,
    run: async (effect) => runOutcome(deps.runtime, effect),
    identity,
    log,
  };
  const acceptance = await acceptPayment(c.req.raw, route, deps.dialects);
  if (acceptance.kind === "absent") return undefined;
  if (acceptance.kind === "refused") {
    const refused = await refusedPurchase(c, deps, acceptance.error);
    return acceptance.headers === undefined || refused.ok
      ? refused
      : { ok: false, response: withHeaders(refused.response, acceptance.headers) };
  }
  const { payment, credited } = acceptance;
  const spec = payment.dialect === "x-payment-authorization";
  deps.metrics.count("payment_grants_total");
  deps.metrics.count("payment_queries_granted_total", {}, credited.queries);
  log.info(spec ? "x402 payment granted" : "x402 v2 payment granted", {
    identity,
    signature: payment.receipt.transaction_hash,
    ...(spec ? { amount: payment.receipt.amount } : { queries: credited.queries }),
  });
  // The payer signed this very request: later requests of this client without a session spend it too.
  if (credited.payer !== undefined)
    await runOutcome(deps.runtime, linkPayer(identity, credited.payer, credited.queries));
  deps.recorder.paid(log, {
    identity,
    units: credited.units,
    queries: credited.queries,
    dialect: spec ? "x402" : "x402-v2",
    receipt: receiptInHeaders(acceptance.headers)?.signature,
  });
  return { ok: true, headers: acceptance.headers, payer: credited.payer };
};

/** A refused purchase as the chat's answer: 503 when verification could not run, else the x402 error. */
const refusedPurchase = async (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  error: PaymentRejected | StoreUnavailable | ChainUnavailable,
): Promise<Bought> => {
  const identity = c.env.identity;
  const log = c.env.log;
  if (error._tag !== "PaymentRejected") return { ok: false, response: unavailableResponse(c, error) };
  const rendering = REJECTIONS[error.reason];
  deps.metrics.count("payment_rejections_total", { reason: rendering.code });
  log.warn("x402 payment rejected", { identity, reason: rendering.code, detail: error.reason });
  const { status, body } = x402Rejection(error);
  const fields = {
    success: false,
    error: body.Message,
    code: rendering.code,
    retryable: rendering.retryable,
  };
  if (body.Code === "PAYMENT_EXPIRED")
    return { ok: false, response: await offerPayment(c, deps, body.Code, fields, body.Details) };
  return {
    ok: false,
    response: c.json(
      { ...body, ...fields },
      status,
      rendering.retryable ? { "Retry-After": retryAfterOf(error) } : {},
    ),
  };
};
