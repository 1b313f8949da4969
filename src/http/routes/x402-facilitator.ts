/**
 * The standard x402 facilitator endpoints, so other x402 servers can use this service as their
 * Solana facilitator: GET /x402/supported, POST /x402/verify, POST /x402/settle (x402 v2 shapes,
 * answered 200 with isValid/success false on a refusal, as the official HTTP client expects).
 * Only with X402_FACILITATOR_API and X402_FACILITATOR_TOKEN as a bearer token (constant-time
 * compare); without the switch the paths are a plain 404. Wrong tokens lock the client out like
 * the admin's (src/hono-kit/failure-limiter.ts), and the edge's protection limit covers /x402/*.
 */

import type { Redacted } from "effect";
import { type Context, Hono } from "hono";
import { windowOf } from "../../../core/payments/chain-lookup-budget.ts";
import { type AppEnv, edgeFactsAsVariables } from "../../hono-kit/app-env.ts";
import { bearerDoor, retryAfterSeconds } from "../../hono-kit/bearer-door.ts";
import { type FailureLimiter, failureLimiter } from "../../hono-kit/failure-limiter.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { ExactFacilitator } from "../../payments/v2/exact-payment.ts";
import { facilitatorService } from "../../payments/v2/facilitator-service.ts";

export interface FacilitatorRouteDeps {
  readonly facilitator: ExactFacilitator;
  readonly token: Redacted.Redacted<string>;
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  /** Wrong tokens per client (default: 5 in 15 minutes, as the admin's door). */
  readonly limiter?: FailureLimiter;
}

/** A refusal by the chain lookup budget says when the minute's budget is back. */
const lookupWait = (reason: string | undefined): Record<string, string> =>
  reason === "chain-lookups-limited" ? { "Retry-After": retryAfterSeconds(windowOf(Date.now()).leftMs) } : {};

const readJson = async (c: Context): Promise<unknown> => c.req.json().catch(() => undefined);

export const x402FacilitatorRoutes = (deps: FacilitatorRouteDeps) => {
  const service = facilitatorService(deps.facilitator, async (effect) => runOutcome(deps.runtime, effect));
  const door = bearerDoor(deps.token, deps.limiter ?? failureLimiter());
  const { metrics } = deps;
  return (
    new Hono<AppEnv>()
      .use(edgeFactsAsVariables)
      // /x402/settle spends the fee payer's SOL: a guesser is locked out after a few wrong tokens
      // (even the right token is then refused), counted, and named in a WARN line (never the token).
      .use(async (c, next) => {
        const identity = c.get("identity");
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
            c.get("log").warn("wrong x402 facilitator token", { identity });
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
        const verified = await service.verify(await readJson(c), c.get("identity"));
        return c.json(verified, 200, lookupWait(verified.invalidReason));
      })
      .post("/settle", async (c) => {
        const settled = await service.settle(await readJson(c), c.get("identity"));
        return c.json(settled, 200, lookupWait(settled.errorReason));
      })
  );
};
