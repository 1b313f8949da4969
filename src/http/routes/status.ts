/** GET /api/status: the caller's rateLimit state (never 402). */
import * as Effect from "effect/Effect";
import { type Context, Hono } from "hono";
import { QuickReads } from "../../../core/ports/quick-reads.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { QuotaView } from "../../../core/quota.ts";
import { SignInRefused } from "../../../core/sign-in/sign-in-rules.ts";
import { type AppEnv, adoptEdgeFacts, type EdgeRequest } from "../../hono-kit/app-env.ts";
import { type AppRuntime, type Outcome, runOutcome } from "../../hono-kit/run-effect.ts";
import {
  hashSessionToken,
  isSessionTokenShaped,
  SESSION_HEADER,
} from "../../payments/sign-in/session-token.ts";
import { errorResponse } from "../error-response.ts";

import { preparedFor, preparedJson } from "../prepared-response.ts";

/**
 * `{success: true, ...view, rateLimit: view}` as JSON. Written out by hand because this is the
 * busiest route and every value is a number or a boolean; a property test holds it equal to
 * JSON.stringify.
 */
export const statusBody = ({ remaining, resetAt, requiresPayment, free, paid }: QuotaView): string => {
  const fields = `"remaining":${remaining},"resetAt":${resetAt},"requiresPayment":${requiresPayment},"free":${free},"paid":${paid}`;
  return `{"success":true,${fields},"rateLimit":{${fields}}}`;
};

/**
 * `statusBody`, reusing the text of a view seen before: most callers share a handful of views
 * (every fresh client sees the same one until midnight), and Bun sends a string it has sent
 * before faster than a new one (measured: about 4% of a status request). Bounded, and emptied
 * when the day (resetAt) changes.
 */
export const statusBodies = (limit = 1024) => {
  let resetAt = Number.NaN;
  let bodies = new Map<number, string>();
  return (view: QuotaView): string => {
    if (view.resetAt !== resetAt || bodies.size >= limit) {
      resetAt = view.resetAt;
      bodies = new Map();
    }
    // One number per (remaining, free) pair, 0 <= free <= remaining (paid is the difference);
    // requiresPayment implies remaining 0, so -1 cannot clash with a pair.
    const key = view.requiresPayment ? -1 : (view.remaining * (view.remaining + 1)) / 2 + view.free;
    let body = bodies.get(key);
    if (body === undefined) {
      body = statusBody(view);
      bodies.set(key, body);
    }
    return body;
  };
};

/** What the route and its fast path share: the store's quick reads (once resolved) and the bodies. */
export const statusReads = () => ({
  bodyOf: statusBodies(),
  // Resolved on the first request (the runtime is built by then), then kept.
  quick: undefined as QuickReads["Service"] | undefined,
});

/**
 * GET /api/status answered by the edge itself for the default site's busiest case: no session,
 * the quick reads resolved and the store answering. Anything else (a session, the first request,
 * a store failure) returns undefined and takes the router's route above, which answers it
 * the same way. The fast path saves Hono's dispatch, matching and Context: 5.6% of the samples
 * of an in-process CPU profile of the request.
 */
export const statusFastPath =
  (shared: ReturnType<typeof statusReads>) =>
  (request: Request, facts: EdgeRequest): Response | Promise<Response | undefined> | undefined => {
    const reads = shared.quick;
    if (reads === undefined || request.headers.has(SESSION_HEADER)) return undefined;
    const view = reads.spenderView(facts.identity);
    if (!(view instanceof Promise)) return preparedFor(facts, shared.bodyOf(view));
    return view.then((read) =>
      read instanceof StoreUnavailable ? undefined : preparedFor(facts, shared.bodyOf(read)),
    );
  };

/** A session the store does not hold as open (the same refusals as sessionWallet). */
const refused = (reason: "session-unknown" | "session-revoked") => new SignInRefused({ reason });

/**
 * The route. A client without a session (the busiest request) reads through the store's
 * QuickReads.spenderView: its identity's quota, its payer link and the wallet behind it in one
 * read, so on the memory store the whole request completes without an effect run or a promise,
 * and on Redis it is one script call behind a plain promise (docs/performance.md). The effect
 * runtime around one read was a tenth of a status request on memory, more on Redis.
 */
export const statusRoutes = (runtime: AppRuntime, paidDailyCap: number, shared = statusReads()) => {
  const { bodyOf } = shared;
  const respond = (c: Context<AppEnv>, view: QuotaView | StoreUnavailable): Response => {
    if (!(view instanceof StoreUnavailable)) return preparedJson(c, bodyOf(view));
    adoptEdgeFacts(c);
    return errorResponse(c, view, paidDailyCap);
  };
  /**
   * The holder of a session spends its wallet and sees which wallet it is (a client linked by
   * having paid from this address, which a NAT or a carrier's shared address holds many of,
   * reads through spenderView and is never told whose it is). The session and both quotas are
   * one read (QuickReads.sessionView); the token is hashed first (the store holds no token).
   */
  const sessionStatus = async (
    c: Context<AppEnv>,
    reads: QuickReads["Service"],
    token: string,
  ): Promise<Response> => {
    adoptEdgeFacts(c);
    if (!isSessionTokenShaped(token)) return errorResponse(c, refused("session-unknown"), paidDailyCap);
    const found = await reads.sessionView(c.get("identity"), await hashSessionToken(token));
    if (found instanceof StoreUnavailable) return errorResponse(c, found, paidDailyCap);
    if (found.kind !== "active")
      return errorResponse(
        c,
        refused(found.kind === "revoked" ? "session-revoked" : "session-unknown"),
        paidDailyCap,
      );
    const { view, wallet } = found;
    return c.json({ success: true, ...view, rateLimit: view, wallet });
  };
  const spender = (c: Context<AppEnv>, reads: QuickReads["Service"]): Response | Promise<Response> => {
    const view = reads.spenderView(c.env.identity);
    if (!(view instanceof Promise)) return preparedJson(c, bodyOf(view));
    return view.then((read) => respond(c, read));
  };
  // Not async: on the memory store the whole request completes without a promise.
  const route = (c: Context<AppEnv>, reads: QuickReads["Service"]): Response | Promise<Response> => {
    const token = c.req.header(SESSION_HEADER);
    return token === undefined ? spender(c, reads) : sessionStatus(c, reads, token.trim());
  };
  return new Hono<AppEnv>().get("/", (c): Response | Promise<Response> => {
    if (shared.quick !== undefined) return route(c, shared.quick);
    // The runtime is built by the first request; the reads are kept from then on.
    const keep = (found: Outcome<QuickReads["Service"], never>) => {
      shared.quick = found.ok ? found.value : found.error;
      return route(c, shared.quick);
    };
    const found = runOutcome(runtime, Effect.service(QuickReads));
    return found instanceof Promise ? found.then(keep) : keep(found);
  });
};
