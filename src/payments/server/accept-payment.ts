/**
 * The one entry of every paid request, the paywall's and /api/chat's: each dialect in turn is
 * asked whether the request carries its proof, and the first that does decides; and the 402
 * that offers a payment request in every dialect at once.
 */

import type { PaymentRequest } from "../../../core/payments/x402.ts";
import { type X402Code, x402Error } from "../../../core/payments/x402.ts";
import type { Offering } from "./dialect.ts";

/** The first acceptance that is not absent, or absent when no dialect finds its proof. */
export const acceptPayment = async <Route, Found extends { readonly kind: string }>(
  request: Request,
  route: Route,
  dialects: ReadonlyArray<{ readonly accept: (request: Request, route: Route) => Promise<Found> }>,
): Promise<Found | { readonly kind: "absent" }> => {
  for (const dialect of dialects) {
    const acceptance = await dialect.accept(request, route);
    if (acceptance.kind !== "absent") return acceptance;
  }
  return { kind: "absent" };
};

/**
 * A 402's body and headers offering `request` in every dialect: each dialect's part, then the
 * x402 error (`code`, `message`, `details` and the payment request). `offerMessage` is repeated
 * by the dialects that carry a message of their own.
 */
export const paymentOffer = (
  dialects: ReadonlyArray<Offering>,
  request: PaymentRequest,
  url: string,
  error: {
    readonly code: X402Code;
    readonly message: string;
    readonly details?: Readonly<Record<string, unknown>>;
  },
  offerMessage?: string,
  extensions?: Readonly<Record<string, unknown>>,
) => {
  const offers = dialects.map((dialect) => dialect.offer(request, url, offerMessage, extensions));
  const { body } = x402Error(error.code, error.message, { ...error.details, payment_request: request });
  return {
    body: Object.assign({}, ...offers.map((offer) => offer.body), body) as Record<string, unknown>,
    headers: {
      "Cache-Control": "no-store",
      ...Object.assign({}, ...offers.map((offer) => offer.headers)),
    } as Record<string, string>,
  };
};
