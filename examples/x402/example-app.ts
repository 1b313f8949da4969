/**
 * The spec's reference example server (x402 protocol reference, section 4): API info and free
 * data, and three priced resources behind the paywall. Response bodies are ours (the spec
 * leaves them open): each paid body says what was bought and the receipt of the payment.
 */
import { Hono } from "hono";
import type { LateTransferPolicy } from "../../core/payments/late-transfer.ts";
import type { Paywall, X402Env } from "../../src/payments/server/payment-server.ts";

/** The tiers of /tiered-data/{tier}; any other tier is 404 before a price is asked. */
export const TIERS = {
  basic: "Daily aggregates",
  pro: "Hourly aggregates with percentiles",
  enterprise: "Raw events with full history",
} as const;
const isTier = (tier: string): tier is keyof typeof TIERS => Object.hasOwn(TIERS, tier);

export const PRICES = { premium: "0.10", expensive: "1.00", tiered: "0.05" } as const;

export interface ExampleTerms {
  readonly network: string;
  readonly paymentAddress: string;
  readonly tokenMint: string;
  /** Lifetime of each payment request in seconds (the paywall's default, 300, when absent). */
  readonly expiresIn?: number | undefined;
  /** What the priced routes do with a late transfer (the paywall's default, "serve", when absent). */
  readonly lateTransfers?: LateTransferPolicy | undefined;
}

/** The example routes on `paywall`. */
export const createExampleApp = (paywall: Paywall, terms: ExampleTerms) => {
  const priced = (Amount: string, Description: string) =>
    paywall({
      Amount,
      Description,
      ...(terms.expiresIn === undefined ? {} : { ExpiresIn: terms.expiresIn }),
      ...(terms.lateTransfers === undefined ? {} : { LateTransfers: terms.lateTransfers }),
    });
  return new Hono<X402Env>()
    .get("/", (c) =>
      c.json({
        name: "x402 example server",
        protocol: "HTTP 402: pay, then repeat the request with X-Payment-Authorization",
        network: terms.network,
        payment_address: terms.paymentAddress,
        asset_address: terms.tokenMint,
        endpoints: [
          { method: "GET", path: "/", price: null },
          { method: "GET", path: "/free-data", price: null },
          { method: "GET", path: "/premium-data", price: PRICES.premium },
          { method: "GET", path: "/expensive-data", price: PRICES.expensive },
          { method: "GET", path: "/tiered-data/{tier}", price: PRICES.tiered, tiers: Object.keys(TIERS) },
        ],
      }),
    )
    .get("/free-data", (c) => c.json({ data: "Free data: no payment needed.", paid: false }))
    .get("/premium-data", priced(PRICES.premium, "Premium data"), (c) =>
      c.json({ data: "Premium data: market summary for today.", paid: true, receipt: c.get("x402").receipt }),
    )
    .get("/expensive-data", priced(PRICES.expensive, "Expensive data"), (c) =>
      c.json({
        data: "Expensive data: the full research report.",
        paid: true,
        receipt: c.get("x402").receipt,
      }),
    )
    .get(
      "/tiered-data/:tier",
      async (c, next) => {
        if (!isTier(c.req.param("tier")))
          return c.json({ error: `Unknown tier; one of: ${Object.keys(TIERS).join(", ")}` }, 404);
        return next();
      },
      priced(PRICES.tiered, "Tiered data"),
      (c) => {
        const tier = c.req.param("tier");
        return c.json({
          tier,
          data: isTier(tier) ? TIERS[tier] : "",
          paid: true,
          receipt: c.get("x402").receipt,
        });
      },
    );
};

export type ExampleApp = ReturnType<typeof createExampleApp>;
