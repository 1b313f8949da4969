/**
 * GET /.well-known/x402.json: the discovery manifest of this origin's x402 v2 resources. The
 * payment terms are read once (they change only with a restart); whether x402 v2 is offered is
 * asked at each request, as the live 402s ask it; only the resource URLs depend on the request
 * (PUBLIC_ORIGIN when set, else the request's own origin).
 */
import * as Effect from "effect/Effect";
import { Hono } from "hono";
import { PaymentSettings } from "../../../core/payments/payment-settings.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import { type DiscoveryEntry, discoveryManifest } from "../../payments/v2/discovery.ts";
import type { ExactFacilitator } from "../../payments/v2/exact-payment.ts";
import { unavailableResponse } from "../error-response.ts";

export interface DiscoveryDeps {
  readonly runtime: AppRuntime;
  readonly entries: ReadonlyArray<DiscoveryEntry>;
  readonly facilitator: ExactFacilitator | undefined;
  readonly publicOrigin: string | undefined;
}

const terms = Effect.map(PaymentSettings, ({ wallet, usdcMint }) => ({ wallet, usdcMint }));

export const x402DiscoveryRoutes = ({ runtime, entries, facilitator, publicOrigin }: DiscoveryDeps) => {
  let resolved: { readonly wallet: string; readonly usdcMint: string; readonly at: number } | undefined;
  return new Hono<AppEnv>().get("/x402.json", async (c) => {
    if (resolved === undefined) {
      const outcome = await runOutcome(runtime, terms);
      if (!outcome.ok) return unavailableResponse(c, outcome.error);
      resolved = { ...outcome.value, at: Math.floor(Date.now() / 1000) };
    }
    // As the live 402s: x402 v2 only while the fee payer is above its floor.
    const offer = facilitator?.sponsor.offered()
      ? {
          network: facilitator.network,
          feePayer: facilitator.feePayer.address,
          paymentIdRequired: facilitator.paymentIdRequired,
        }
      : undefined;
    const manifest = discoveryManifest({
      entries,
      terms: resolved,
      offer,
      origin: publicOrigin ?? new URL(c.req.url).origin,
      lastUpdated: resolved.at,
    });
    return c.json(manifest, 200, { "Cache-Control": "public, max-age=60" });
  });
};
