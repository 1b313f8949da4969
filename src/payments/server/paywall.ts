/**
 * The HTTP 402 paywall for any Hono route and method:
 *
 *   const paywall = createPaywall(
 *     { PaymentAddress, TokenMint, Network, RPCURL, AutoVerify: true },
 *     { runtime, logger, chainFor: (rpcUrl) => ChainSolana.fromUrl({ rpcUrl }) },
 *   );
 *   app.get("/premium-data", paywall({ Amount: "0.10", Description: "Premium data" }), (c) => c.json(c.get("x402").receipt));
 *
 * Without a valid payment the answer is 402 with a fresh payment request (stored until it
 * expires). With one, the payment is verified and consumed before the handler runs; the handler
 * reads it from `c.get("x402")`, and a successful response carries the receipt header.
 */
import * as Effect from "effect/Effect";
import type * as ManagedRuntime from "effect/ManagedRuntime";
import type { Context, MiddlewareHandler, Next } from "hono";
import {
  type ChainLookupCeilings,
  ChainLookupLimits,
  DEFAULT_CHAIN_LOOKUP_CEILINGS,
} from "../../../core/payments/chain-lookup-budget.ts";
import { formatUnits } from "../../../core/payments/money.ts";
import type { X402Code } from "../../../core/payments/x402.ts";
import type { CeilingCounter } from "../../../core/ports/ceiling-counter.ts";
import { ChainReader } from "../../../core/ports/chain-reader.ts";
import type { PaidResults } from "../../../core/ports/paid-results.ts";
import type { PaymentRequests } from "../../../core/ports/payment-requests.ts";
import type { PaymentStore } from "../../../core/ports/payment-store.ts";
import type { PendingSettlements } from "../../../core/ports/pending-settlements.ts";
import type { RequestSeal } from "../../../core/ports/request-seal.ts";
import type { SecureRandom } from "../../../core/ports/secure-random.ts";
import type { SettlementLocks } from "../../../core/ports/settlement-locks-store.ts";
import type { SponsorLosses } from "../../../core/ports/sponsor-losses-store.ts";
import type { UnattributedPayments } from "../../../core/ports/unattributed-payments.ts";
import { runOutcome } from "../../hono-kit/run-effect.ts";
import type { Logger } from "../../observability/log.ts";
import { retryAfterOf } from "../payment-rejections.ts";
import { type PaidOnceDeps, paidOnce } from "../v2/paid-once.ts";
import { acceptPayment, paymentOffer } from "./accept-payment.ts";
import type { PaidRoute, PaymentDialect, PaymentRefusal, RunPayment, VerifiedPayment } from "./dialect.ts";
import { issuePaymentRequest, offerOf, paymentRequestOf } from "./issue-request.ts";
import {
  decodeConfig,
  type PaywallConfig,
  PaywallConfigError,
  type RouteOptions,
  routeTerms,
} from "./paywall-options.ts";
import { specDialect } from "./spec-dialect.ts";
import { x402Rejection, x402Unavailable } from "./x402-errors.ts";

/** Hono environment of a paid route: `c.get("x402")`. */
export interface X402Env {
  Variables: { x402: VerifiedPayment };
}

export interface PaywallDeps {
  /** Holds the store (memory or Redis) the payment requests live in. */
  readonly runtime: ManagedRuntime.ManagedRuntime<
    | PaymentRequests
    | PaymentStore
    | SecureRandom
    | SettlementLocks
    | RequestSeal
    | CeilingCounter
    | UnattributedPayments
    | PaidResults
    | PendingSettlements
    | SponsorLosses,
    never
  >;
  /**
   * The client a request comes from, whose budget of chain lookups its payment spends (default:
   * the `identity` variable of this service's client-identity middleware, else one shared
   * client, which refuses more, never less).
   */
  readonly clientOf?: (c: Context) => string;
  /** The budget of chain lookups its payments may cause (default: the documented ceilings). */
  readonly chainLookups?: ChainLookupCeilings;
  readonly logger: Logger;
  /** The chain reader of an RPC address (e.g. `ChainSolana.fromUrl`, wired by the program); built once per address. */
  readonly chainFor: (rpcUrl: string) => ChainReader["Service"];
  /** Dialects, asked in order (default: the spec's X-Payment-Authorization). */
  readonly dialects?: ReadonlyArray<PaymentDialect>;
}

const UNVERIFIED_WARNING =
  "!!! x402 AutoVerify is OFF: transfers are NOT checked on chain (amount, recipient, mint, memo); only the header, its signature and its payment_id are. Never take real money like this.";

const RETRY_AFTER = { "Retry-After": "5" };
const SHARED_CLIENT = "paywall";

/** The client's identity when the paywall runs behind this service's edge (its facts are `c.env`). */
const identityVariable = (c: Context): string => {
  const env: unknown = c.env;
  const identity = typeof env === "object" && env !== null && "identity" in env ? env.identity : undefined;
  return typeof identity === "string" ? identity : SHARED_CLIENT;
};

export const createPaywall = (input: PaywallConfig, deps: PaywallDeps) => {
  const config = decodeConfig(input);
  if (config.Network === "chain-mainnet" && config.AutoVerify !== true)
    throw new PaywallConfigError({
      problem: "on chain-mainnet set AutoVerify: true (the default, false, is refused)",
    });
  if (config.AutoVerify !== true) deps.logger.warn(UNVERIFIED_WARNING, { network: config.Network });
  const dialects = deps.dialects ?? [specDialect(deps.logger)];
  const clientOf = deps.clientOf ?? identityVariable;
  const paidOnceDeps: PaidOnceDeps = {
    required: dialects.some((dialect) => dialect.paymentIdRequired === true),
    run: async (effect) => runOutcome(deps.runtime, effect),
    logger: deps.logger,
  };
  const readers = new Map<string, ChainReader["Service"]>();
  const readerFor = (rpcUrl: string) => {
    let reader = readers.get(rpcUrl);
    if (reader === undefined) {
      reader = deps.chainFor(rpcUrl);
      readers.set(rpcUrl, reader);
    }
    return reader;
  };

  /** A 402 with a fresh payment request from every dialect, as PAYMENT_REQUIRED or PAYMENT_EXPIRED. */
  const paymentRequired = async (
    c: Context,
    route: PaidRoute,
    code: X402Code,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
  ) => {
    const issued = await route.run(issuePaymentRequest(route.terms, route.binding));
    if (!issued.ok) return c.json(x402Unavailable(issued.error).body, 503, RETRY_AFTER);
    const offer = paymentOffer(dialects, paymentRequestOf(issued.value), c.req.url, {
      code,
      message,
      details,
    });
    return c.json(offer.body, 402, offer.headers);
  };

  const refuse = (c: Context, route: PaidRoute, error: PaymentRefusal) => {
    if (error._tag !== "PaymentRejected") {
      deps.logger.warn("x402 verification unavailable", {
        resource: route.binding.resource,
        reason: error._tag,
      });
      return c.json(x402Unavailable(error).body, 503, RETRY_AFTER);
    }
    deps.logger.warn("x402 payment refused", { resource: route.binding.resource, reason: error.reason });
    const { status, body } = x402Rejection(error);
    if (body.Code === "PAYMENT_EXPIRED")
      return paymentRequired(c, route, body.Code, body.Message, body.Details);
    return c.json(
      body,
      status,
      body.Details.retryable === true ? { "Retry-After": retryAfterOf(error) } : {},
    );
  };

  /** The middleware for one price; throws PaywallConfigError on bad options. */
  return (options: RouteOptions): MiddlewareHandler<X402Env> => {
    const terms = routeTerms(config, options);
    if (!terms.autoVerify && config.AutoVerify === true)
      deps.logger.warn(UNVERIFIED_WARNING, { amount: options.Amount });
    const chain = readerFor(terms.rpcUrl);
    const run: RunPayment = async (effect) =>
      runOutcome(
        deps.runtime,
        effect.pipe(
          Effect.provideService(ChainReader, chain),
          Effect.provideService(ChainLookupLimits, deps.chainLookups ?? DEFAULT_CHAIN_LOOKUP_CEILINGS),
        ),
      );
    const price = `Payment required: ${formatUnits(terms.units)} USDC`;
    const serve = async (c: Context<X402Env>, next: Next): Promise<Response> => {
      const binding = { resource: c.req.path, method: c.req.method };
      const route: PaidRoute = { terms, binding, offer: offerOf(terms, binding), client: clientOf(c), run };
      const acceptance = await acceptPayment(c.req.raw, route, dialects);
      if (acceptance.kind === "refused") return refuse(c, route, acceptance.error);
      if (acceptance.kind === "accepted") {
        c.set("x402", acceptance.payment);
        await next();
        c.res = await acceptance.settle(c.res);
        return c.res;
      }
      return paymentRequired(
        c,
        route,
        "PAYMENT_REQUIRED",
        `${price} for ${route.binding.method} ${route.binding.resource}`,
      );
    };
    // A payment named by an x402 payment identifier is paid once: its resend gets this response back.
    return async (c, next) => {
      const response = await paidOnce(
        c.req.raw,
        () => c.req.text(),
        paidOnceDeps,
        () => serve(c, next),
      );
      if (response !== c.res) c.res = response;
    };
  };
};

export type Paywall = ReturnType<typeof createPaywall>;
