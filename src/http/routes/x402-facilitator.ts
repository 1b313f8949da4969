/**
 * The standard x402 facilitator endpoints, so other x402 servers can use this service as their
 * Solana facilitator: GET /x402/supported, POST /x402/verify, POST /x402/settle (x402 v2 shapes,
 * answered 200 with isValid/success false on a refusal, as the official HTTP client expects).
 * Only with X402_FACILITATOR_TOKEN (and the fee payer) as a bearer token (constant-time
 * compare); without them the paths are a plain 404. Wrong tokens lock out that token from
 * that client, never the right one (src/hono-kit/partner-door.ts), and the edge's protection
 * limit covers /x402/*. What is sponsored at all: src/payments/v2/facilitator-terms.ts.
 * GET /x402/discovery/resources (bazaar's discovery list of this service's own paid resources)
 * needs no token: it says only what /.well-known/x402.json and every 402 say.
 */

import * as Effect from "effect/Effect";
import type * as Redacted from "effect/Redacted";
import { type Context, Hono } from "hono";
import { windowOf } from "../../../core/payments/chain-lookup-budget.ts";
import { PaymentSettings } from "../../../core/payments/payment-settings.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { retryAfterSeconds } from "../../hono-kit/bearer-door.ts";
import { type PartnerDoorOptions, partnerDoor } from "../../hono-kit/partner-door.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { bazaarExtension } from "../../payments/bazaar/bazaar-declaration.ts";
import { type DiscoveryQuery, discoveryResources } from "../../payments/bazaar/discovery-resources.ts";
import type { ServiceMetadata } from "../../payments/bazaar/service-metadata.ts";
import { type DiscoveryEntry, discoveryManifest } from "../../payments/v2/discovery.ts";
import type { ExactFacilitator } from "../../payments/v2/exact-payment.ts";
import { facilitatorService } from "../../payments/v2/facilitator-service.ts";
import { type FacilitatorTerms, facilitatorTerms } from "../../payments/v2/facilitator-terms.ts";

export interface FacilitatorRouteDeps {
  readonly facilitator: ExactFacilitator;
  readonly token: Redacted.Redacted<string>;
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  /** X402_FACILITATOR_PAY_TO and X402_FACILITATOR_MIN_AMOUNT; unset: the service's wallet, its smallest price. */
  readonly terms?: { readonly payTo?: ReadonlyArray<string>; readonly minUnits?: bigint };
  /** Wrong tokens per (client, token) and in all (default: partner-door.ts). */
  readonly door?: PartnerDoorOptions;
  /** This service's paid resources, listed by GET /discovery/resources (bazaar). */
  readonly discovery?: {
    readonly entries: ReadonlyArray<DiscoveryEntry>;
    readonly service: ServiceMetadata;
    readonly publicOrigin: string | undefined;
  };
}

/** A refusal by the chain lookup budget says when the minute's budget is back. */
const lookupWait = (reason: string | undefined): Record<string, string> =>
  reason === "chain-lookups-limited" ? { "Retry-After": retryAfterSeconds(windowOf(Date.now()).leftMs) } : {};

const readJson = async (c: Context): Promise<unknown> => c.req.json().catch(() => undefined);

export const x402FacilitatorRoutes = (deps: FacilitatorRouteDeps) => {
  // The service's own wallet, read once from its payment settings (the default allow-list).
  let terms: Promise<FacilitatorTerms> | undefined;
  const termsNow = () => {
    terms ??= deps.runtime
      .runPromise(Effect.map(PaymentSettings, (settings) => facilitatorTerms(settings.wallet, deps.terms)))
      .catch((error: unknown) => {
        // Read again next time rather than failing every later request.
        terms = undefined;
        throw error;
      });
    return terms;
  };
  const service = facilitatorService(deps.facilitator, termsNow, async (effect) =>
    runOutcome(deps.runtime, effect),
  );
  const door = partnerDoor(deps.token, deps.door);
  const { metrics, discovery } = deps;
  const declared = discovery?.entries.map(bazaarExtension) ?? [];
  const settings = Effect.map(PaymentSettings, ({ wallet, usdcMint }) => ({ wallet, usdcMint }));
  return (
    new Hono<AppEnv>()

      // Before the door: a catalogue reads it without a token.
      .get("/discovery/resources", async (c) => {
        const terms = await runOutcome(deps.runtime, settings);
        if (!terms.ok) return c.json({ error: "Discovery is temporarily unavailable" }, 503);
        const { facilitator } = deps;
        const manifest = discoveryManifest({
          entries: discovery?.entries ?? [],
          terms: terms.value,
          offer: facilitator.sponsor.offered()
            ? { network: facilitator.network, feePayer: facilitator.feePayer.address }
            : undefined,
          origin: discovery?.publicOrigin ?? new URL(c.req.url).origin,
          lastUpdated: Math.floor(Date.now() / 1000),
        });
        const query: DiscoveryQuery = c.req.query();
        return c.json(discoveryResources(manifest, declared, discovery?.service ?? {}, query));
      })
      // /x402/settle spends the fee payer's SOL: a wrong token is locked out after a few tries
      // (the right one from the same client still passes), counted, and named in a WARN line
      // (never the token).
      .use(async (c, next) => {
        const identity = c.env.identity;
        const verdict = door(c.req.header("authorization"), identity);
        switch (verdict.kind) {
          case "ok":
            return next();
          case "locked":
            metrics.count("x402_facilitator_auth_locked_total");
            return c.json(
              { error: "Too many wrong facilitator tokens: try again later", code: "TOO_MANY_ATTEMPTS" },
              429,
              { "Retry-After": retryAfterSeconds(verdict.retryAfterMs) },
            );
          case "wrong":
            metrics.count("x402_facilitator_auth_failures_total");
            c.env.log.warn("wrong x402 facilitator token", { identity });
            break;
          case "missing":
            break;
          default:
            return verdict satisfies never;
        }
        return c.json({ error: "A bearer token (X402_FACILITATOR_TOKEN) is required" }, 401, {
          "WWW-Authenticate": 'Bearer realm="x402-facilitator"',
        });
      })
      .get("/supported", (c) => c.json(service.supported()))
      .post("/verify", async (c) => {
        const verified = await service.verify(await readJson(c), c.env.identity);
        return c.json(verified, 200, lookupWait(verified.invalidReason));
      })
      .post("/settle", async (c) => {
        const settled = await service.settle(await readJson(c), c.env.identity);
        return c.json(settled, 200, lookupWait(settled.errorReason));
      })
  );
};
