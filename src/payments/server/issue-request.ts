/**
 * A fresh payment request for a route: unguessable payment_id and nonce (CSPRNG, about 128 and
 * 187 bits), remembered by the store until it expires (plus the settle grace), and its 402 body.
 */
import { Clock, Effect } from "effect";
import { formatUnits } from "../../../core/payments/money.ts";
import type { PaymentRequest } from "../../../core/payments/x402.ts";
import type { Binding, IssuedPayment } from "../../../core/payments/x402-ledger.ts";
import { PaymentRequests } from "../../../core/ports/payment-requests.ts";
import { SecureRandom } from "../../../core/ports/secure-random.ts";
import type { RouteTerms } from "./paywall-options.ts";

export const PAYMENT_ID_PREFIX = "pay_";

/** What a payment request is issued from: a route's price and recipient. */
export type OfferTerms = Pick<
  RouteTerms,
  "units" | "payTo" | "mint" | "network" | "description" | "expiresInSeconds"
>;

/** Issues and stores a request for `binding` on `terms`. */
export const issuePaymentRequest = (terms: OfferTerms, binding: Binding) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis;
    const random = yield* SecureRandom;
    const issued: IssuedPayment = {
      paymentId: `${PAYMENT_ID_PREFIX}${random.base58(22)}`,
      nonce: random.base58(32),
      resource: binding.resource,
      method: binding.method,
      units: terms.units,
      payTo: terms.payTo,
      mint: terms.mint,
      network: terms.network,
      expiresAt: now + terms.expiresInSeconds * 1000,
      description: terms.description,
    };
    yield* Effect.flatMap(PaymentRequests, (requests) => requests.issue(issued, now));
    return issued;
  });

/** The spec's payment request (the 402 body) for an issued request. */
export const paymentRequestOf = (issued: IssuedPayment): PaymentRequest => ({
  max_amount_required: formatUnits(issued.units),
  asset_type: "SPL",
  asset_address: issued.mint,
  payment_address: issued.payTo,
  network: issued.network,
  expires_at: new Date(issued.expiresAt).toISOString(),
  nonce: issued.nonce,
  payment_id: issued.paymentId,
  resource: issued.resource,
  description: issued.description,
});
