/** GET /api/status: the caller's rateLimit state (never 402). */
import { Clock, Effect, Option } from "effect";
import { type Context, Hono } from "hono";
import { QuickReads } from "../../../core/ports/quick-reads.ts";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { WalletSessions } from "../../../core/ports/wallet-sessions.ts";
import type { QuotaView } from "../../../core/quota.ts";
import { spenderView } from "../../../core/use-cases/spend-query.ts";
import { type AppEnv, adoptEdgeFacts } from "../../hono-kit/app-env.ts";
import { type AppRuntime, type Outcome, runOutcome, whenReady } from "../../hono-kit/run-effect.ts";
import { linkedWallet } from "../../payments/sign-in/payer-link.ts";
import { SESSION_HEADER } from "../../payments/sign-in/session-token.ts";
import { sessionWallet } from "../../payments/sign-in/wallet-sign-in.ts";
import { errorResponse } from "../error-response.ts";

type SessionError = Effect.Error<ReturnType<typeof sessionWallet>>;

import { preparedJson } from "../prepared-response.ts";

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

/** The store's quick reads (both stores have them; a test's own store may not). */
const quickReads = Effect.map(Effect.serviceOption(QuickReads), Option.getOrUndefined);

/**
 * The route. It reads through the store's QuickReads: with the memory store the view comes at
 * once, so the whole request completes without an effect run or a promise; with Redis it is one
 * HGETALL behind a plain promise. A status read is the busiest request and the effect runtime
 * was a tenth of its time on memory, more on Redis. A store without them goes through QuotaStore.
 */
export const statusRoutes = (runtime: AppRuntime, paidDailyCap: number) => {
  const bodyOf = statusBodies();
  // Resolved on the first request (the runtime is built by then), then kept.
  let quick: QuickReads["Service"] | undefined;
  const readQuota = (identity: string) =>
    Effect.flatMap(QuotaStore, (quota) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => quota.view(identity, now)),
    );
  const respond = (c: Context<AppEnv>, view: QuotaView | StoreUnavailable): Response => {
    if (!(view instanceof StoreUnavailable)) return preparedJson(c, bodyOf(view));
    adoptEdgeFacts(c);
    return errorResponse(c, view, paidDailyCap);
  };
  /** A client spending a wallet's credits: the view of both, and which wallet. */
  /**
   * The quota the client may spend, its wallet's included. The wallet's address is shown to the
   * holder of its session only: a client linked by having paid from this address (a NAT or a
   * carrier's shared address holds many) spends it but is not told whose it is.
   */
  const walletStatus = (
    c: Context<AppEnv>,
    read: Effect.Effect<string, SessionError, WalletSessions>,
    showWallet: boolean,
  ): Response | Promise<Response> => {
    adoptEdgeFacts(c);
    const identity = c.get("identity");
    const program = Effect.flatMap(read, (wallet) =>
      Effect.map(
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          // The holder of a session sees the wallet; a client through a payer link what it may spend of it.
          spenderView({ identity, wallet, throughLink: !showWallet }, now),
        ),
        (view) => ({ view, wallet }),
      ),
    );
    return whenReady(runOutcome(runtime, program), (outcome) => {
      if (!outcome.ok) return errorResponse(c, outcome.error, paidDailyCap);
      const { view, wallet } = outcome.value;
      return c.json({ success: true, ...view, rateLimit: view, ...(showWallet ? { wallet } : {}) });
    });
  };
  const identityStatus = (c: Context<AppEnv>, identity: string): Response | Promise<Response> => {
    if (quick === undefined) {
      const found = runOutcome(runtime, quickReads);
      if (!(found instanceof Promise) && found.ok) quick = found.value;
    }
    if (quick !== undefined) {
      const view = quick.quotaView(identity);
      if (!(view instanceof Promise)) return preparedJson(c, bodyOf(view));
      const answered: Promise<Response> = view.then((read) => respond(c, read));
      return answered;
    }
    return whenReady(runOutcome(runtime, readQuota(identity)), (outcome) => {
      if (outcome.ok) return respond(c, outcome.value);
      adoptEdgeFacts(c);
      return errorResponse(c, outcome.error, paidDailyCap);
    });
  };
  /** A client that paid with a wallet spends it; any other sees its identity's quota. */
  const afterLink = (
    c: Context<AppEnv>,
    identity: string,
    linked: Outcome<string | undefined, StoreUnavailable>,
  ): Response | Promise<Response> => {
    if (!linked.ok) {
      adoptEdgeFacts(c);
      return errorResponse(c, linked.error, paidDailyCap);
    }
    if (linked.value !== undefined) return walletStatus(c, Effect.succeed(linked.value), false);
    return identityStatus(c, identity);
  };
  // Not async: on the memory store the whole request completes without a promise.
  return new Hono<AppEnv>().get("/", (c): Response | Promise<Response> => {
    const identity = c.env.identity;
    const token = c.req.header(SESSION_HEADER);
    if (token !== undefined) return walletStatus(c, sessionWallet(token.trim()), true);
    const linked = runOutcome(runtime, linkedWallet(identity));
    // A read that answered at once (memory) stays synchronous.
    if (linked instanceof Promise) return linked.then((found) => afterLink(c, identity, found));
    return afterLink(c, identity, linked);
  });
};
