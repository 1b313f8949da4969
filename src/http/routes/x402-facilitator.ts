/**
 * The standard x402 facilitator endpoints, so other x402 servers can use this service as their
 * Solana facilitator: GET /x402/supported, POST /x402/verify, POST /x402/settle (x402 v2 shapes,
 * answered 200 with isValid/success false on a refusal, as the official HTTP client expects).
 * Only with X402_FACILITATOR_API and X402_FACILITATOR_TOKEN as a bearer token (constant-time
 * compare); without the switch the paths are a plain 404.
 */

import type { Redacted } from "effect";
import { Redacted as R } from "effect";
import { type Context, Hono } from "hono";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import { sameSecret } from "../../hono-kit/same-secret.ts";
import type { ExactFacilitator } from "../../payments/v2/exact-payment.ts";
import { facilitatorService } from "../../payments/v2/facilitator-service.ts";

export interface FacilitatorRouteDeps {
  readonly facilitator: ExactFacilitator;
  readonly token: Redacted.Redacted<string>;
  readonly runtime: AppRuntime;
}

const readJson = async (c: Context): Promise<unknown> => c.req.json().catch(() => undefined);

export const x402FacilitatorRoutes = (deps: FacilitatorRouteDeps) => {
  const service = facilitatorService(deps.facilitator, async (effect) => runOutcome(deps.runtime, effect));
  const token = R.value(deps.token);
  return new Hono()
    .use(async (c, next) => {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
      if (match === null || !sameSecret(match[1] ?? "", token))
        return c.json({ error: "A bearer token (X402_FACILITATOR_TOKEN) is required" }, 401, {
          "WWW-Authenticate": 'Bearer realm="x402-facilitator"',
        });
      return next();
    })
    .get("/supported", (c) => c.json(service.supported()))
    .post("/verify", async (c) => c.json(await service.verify(await readJson(c))))
    .post("/settle", async (c) => c.json(await service.settle(await readJson(c))));
};
