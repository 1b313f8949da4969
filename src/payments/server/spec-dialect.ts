/**
 * The spec's dialect: `X-Payment-Authorization: <base64 of the authorization JSON>`, for a
 * transfer the client already made. Decode strictly (size, schema, base58), check the ed25519
 * signature over the documented message, then the core use case (issued payment_id, stated
 * terms, the transfer on chain, one atomic claim). The payment is consumed before the handler
 * runs; `settle` marks it served, or open to a retry with the same header when the handler
 * failed (5xx), so a failed response never loses a payment.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { formatUnits } from "../../../core/payments/money.ts";
import { type PaymentRejected, rejected } from "../../../core/payments/payment-rejected.ts";
import {
  decodeAuthorizationHeader,
  type PaymentAuthorization,
  type PaymentRequest,
} from "../../../core/payments/x402.ts";
import {
  AUTHORIZATION_HEADER,
  encodeReceiptHeader,
  type PaymentReceipt,
  RECEIPT_HEADER,
} from "../../../core/payments/x402-receipt.ts";
import { PaymentRequests } from "../../../core/ports/payment-requests.ts";
import {
  type AcceptedPayment,
  type AuthorizationAttempt,
  acceptPaymentAuthorization,
} from "../../../core/use-cases/accept-payment-authorization.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import type { Logger } from "../../observability/log.ts";
import { isAuthorizationSigned } from "../authorization-signature.ts";
import type { Acceptance, PaymentDialect, PaymentRefusal, RunPayment, VerifiedPayment } from "./dialect.ts";
import { paymentRequestOf } from "./issue-request.ts";

/** The header decoded and its signature checked, or why not. */
export const readAuthorization = async (
  header: string,
): Promise<Result.Result<PaymentAuthorization, PaymentRejected>> => {
  const decoded = decodeAuthorizationHeader(header);
  if (Result.isFailure(decoded)) return Result.fail(rejected("authorization-malformed"));
  return (await isAuthorizationSigned(decoded.success))
    ? Result.succeed(decoded.success)
    : Result.fail(rejected("authorization-signature-invalid"));
};

export interface AcceptedAuthorization extends AcceptedPayment {
  readonly authorization: PaymentAuthorization;
  readonly receipt: PaymentReceipt;
  /** What a handler or the chat reads of it. */
  readonly payment: VerifiedPayment;
}

/** The whole check of one header; the lower-level entry /api/chat uses (with a grant). */
export const acceptAuthorizationHeader = async (
  header: string,
  attempt: Omit<AuthorizationAttempt, "authorization">,
  run: RunPayment,
): Promise<Outcome<AcceptedAuthorization, PaymentRefusal>> => {
  const read = await readAuthorization(header);
  if (Result.isFailure(read)) return { ok: false, error: read.failure };
  const authorization = read.success;
  const outcome = await run(acceptPaymentAuthorization({ ...attempt, authorization }));
  if (!outcome.ok) return outcome;
  const accepted = outcome.value;
  const receipt: PaymentReceipt = {
    payment_id: accepted.issued.paymentId,
    transaction_hash: authorization.transaction_hash,
    network: accepted.issued.network,
    amount: formatUnits(accepted.received),
    payer: authorization.public_key,
    resource: accepted.issued.resource,
  };
  const payment: VerifiedPayment = {
    dialect: "x-payment-authorization",
    authorization,
    request: paymentRequestOf(accepted.issued),
    receipt,
  };
  return { ok: true, value: { ...accepted, authorization, receipt, payment } };
};

/** A copy of `response` with more headers (a handler's response may have immutable headers). */
export const withHeaders = (response: Response, headers: Readonly<Record<string, string>>): Response => {
  if (Object.keys(headers).length === 0) return response;
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
  return copy;
};

/** The receipt header of an accepted payment. */
export const receiptHeaders = (receipt: PaymentReceipt) => ({
  [RECEIPT_HEADER]: encodeReceiptHeader(receipt),
});

const finishPayment = (paymentId: string, lease: string, served: boolean) =>
  Effect.gen(function* () {
    const requests = yield* PaymentRequests;
    yield* requests.finish(paymentId, lease, served, yield* Clock.currentTimeMillis);
  });

/** The spec's name and offer (the payment request is the 402 body), shared with its credit twin. */
export const specOffering = {
  name: "x-payment-authorization",
  offer: (request: PaymentRequest) => ({ headers: {}, body: request }),
} as const;

/** The header of this dialect, or undefined when the request has none. */
export const specHeaderOf = (request: Request) => request.headers.get(AUTHORIZATION_HEADER) ?? undefined;

export const specDialect = (logger: Logger): PaymentDialect => ({
  ...specOffering,
  accept: async (request, route): Promise<Acceptance> => {
    const header = specHeaderOf(request);
    if (header === undefined) return { kind: "absent" };
    const outcome = await acceptAuthorizationHeader(
      header,
      {
        offer: route.offer,
        client: route.client,
        verifyOnChain: route.terms.autoVerify,
        lateTransfers: route.terms.lateTransfers,
      },
      route.run,
    );
    if (!outcome.ok) return { kind: "refused", error: outcome.error };
    const { issued, lease, receipt, payment } = outcome.value;
    return {
      kind: "accepted",
      payment,
      settle: async (response) => {
        const served = response.status < 500;
        const finished = await route.run(finishPayment(issued.paymentId, lease, served));
        // Unrecorded, the claim's lease lapses after LEASE_MS and the same header may be served again.
        if (!finished.ok)
          logger.warn("x402 payment outcome not recorded", { paymentId: issued.paymentId, served });
        return served ? withHeaders(response, receiptHeaders(receipt)) : response;
      },
    };
  },
});
