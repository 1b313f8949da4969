/**
 * A fresh payment request for a route, sealed (core/payments/sealed-request.ts): its payment_id
 * carries a CSPRNG part (about 94 bits), its expiry and an HMAC over them and the route's offer,
 * so issuing one stores nothing; the store hears of it when a payment claims it. And its 402 body.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { formatUnits } from "../../../core/payments/money.ts";
import { type Offer, SEALED_PAYMENT_PREFIX, sealPayment } from "../../../core/payments/sealed-request.ts";
import type { PaymentRequest } from "../../../core/payments/x402.ts";
import type { Binding, IssuedPayment } from "../../../core/payments/x402-ledger.ts";
import { RequestSeal } from "../../../core/ports/request-seal.ts";
import { SecureRandom } from "../../../core/ports/secure-random.ts";
import type { RouteTerms } from "./paywall-options.ts";

export const PAYMENT_ID_PREFIX = SEALED_PAYMENT_PREFIX;

/** What a payment request is issued from: a route's price and recipient. */
export type OfferTerms = Pick<
  RouteTerms,
  "units" | "payTo" | "mint" | "network" | "description" | "expiresInSeconds"
>;

/** What a route offers on `terms` for `binding`: what its sealed payment_ids are checked against. */
export const offerOf = (terms: Omit<OfferTerms, "expiresInSeconds">, binding: Binding): Offer => ({
  binding,
  units: terms.units,
  payTo: terms.payTo,
  mint: terms.mint,
  network: terms.network,
  description: terms.description,
});

/** Issues a sealed request for `binding` on `terms` (nothing is stored). */
export const issuePaymentRequest = (terms: OfferTerms, binding: Binding) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis;
    const random = yield* SecureRandom;
    const seal = yield* RequestSeal;
    return sealPayment(
      seal.mac,
      offerOf(terms, binding),
      random.base58(16),
      now + terms.expiresInSeconds * 1000,
    );
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
