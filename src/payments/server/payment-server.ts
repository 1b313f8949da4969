/** The HTTP 402 server side: the paywall middleware for Hono, its options and its dialects. */
export type { PaymentDialect, VerifiedPayment } from "./dialect.ts";
export { createPaywall, type Paywall, type PaywallDeps, type X402Env } from "./paywall.ts";
export { type PaywallConfig, PaywallConfigError, type RouteOptions } from "./paywall-options.ts";
export { acceptAuthorizationHeader, specDialect } from "./spec-dialect.ts";
