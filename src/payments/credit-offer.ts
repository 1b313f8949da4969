/**
 * The offer of a resource the service sells for credits (the chat, an MCP tool) on the service's
 * payment settings: what its 402s are issued on and what a sealed payment_id presented to it is
 * checked against, built from one place so the two always agree.
 */
import * as Effect from "effect/Effect";
import { x402NetworkOf } from "../../core/payments/network.ts";
import { PaymentSettings } from "../../core/payments/payment-settings.ts";
import type { Offer } from "../../core/payments/sealed-request.ts";
import type { PricedResource } from "./priced-resources.ts";
import { offerOf } from "./server/issue-request.ts";
import { DEFAULT_EXPIRES_IN_SECONDS } from "./server/paywall-options.ts";

/** The issue terms of `priced` (its price, our recipient, mint and network, the spec's lifetime). */
export const creditTerms = (priced: PricedResource) =>
  Effect.gen(function* () {
    const terms = yield* PaymentSettings;
    return {
      units: priced.units,
      payTo: terms.wallet,
      mint: terms.usdcMint,
      network: x402NetworkOf(terms.network),
      description: priced.description,
      expiresInSeconds: DEFAULT_EXPIRES_IN_SECONDS,
    };
  });

/** What `priced`'s 402s offer. */
export const creditOffer = (priced: PricedResource): Effect.Effect<Offer, never, PaymentSettings> =>
  Effect.map(creditTerms(priced), (terms) => offerOf(terms, priced.binding));

/**
 * What a payment presented to `priced` is checked against and credited at: its offer, and the
 * price of a question in the same settings (what the payment buys is `received / unitsPerQuery`).
 */
export const creditRouteTerms = (priced: PricedResource) =>
  Effect.gen(function* () {
    const offer = yield* creditOffer(priced);
    const { unitsPerQuery } = yield* PaymentSettings;
    return { offer, unitsPerQuery };
  });
