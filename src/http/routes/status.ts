/**
 * GET /api/status: the caller's rateLimit state (never 402). Its free questions are the site's
 * left, or fewer when the client has fewer left across every site (free-questions-across-sites).
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { Hono } from "hono";
import { WalletCredits } from "../../../core/ports/wallet-credits-store.ts";
import { freeAcrossSites, spenderView } from "../../../core/use-cases/spend-query.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { type AppRuntime, runOutcome, whenReady } from "../../hono-kit/run-effect.ts";
import { SESSION_HEADER } from "../../sign-in/session-token.ts";
import { sessionWallet } from "../../sign-in/wallet-sign-in.ts";
import { errorResponse } from "../error-response.ts";

/**
 * A client without a session sees what it may spend through its payer link too (one store read:
 * WalletCredits.viewAsPayer), and is never told whose wallet that is: a NAT or a carrier's
 * shared address holds many payers.
 */
const payerStatus = (identity: string) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis;
    const asPayer = yield* (yield* WalletCredits).viewAsPayer(identity, now);
    const view = yield* freeAcrossSites(identity, asPayer, now);
    return { success: true, ...view, rateLimit: view };
  });

/** The holder of a session spends its wallet and sees which wallet it is. */
const sessionStatus = (identity: string, token: string) =>
  Effect.gen(function* () {
    const wallet = yield* sessionWallet(token);
    const now = yield* Clock.currentTimeMillis;
    const view = yield* freeAcrossSites(identity, yield* spenderView({ identity, wallet }, now), now);
    return { success: true, ...view, rateLimit: view, wallet };
  });

export const statusRoutes = (runtime: AppRuntime, paidDailyCap: number) =>
  new Hono<AppEnv>().get("/", (c) => {
    const token = c.req.header(SESSION_HEADER)?.trim();
    const identity = c.env.identity;
    const read = token === undefined ? payerStatus(identity) : sessionStatus(identity, token);
    return whenReady(runOutcome(runtime, read), (outcome) =>
      outcome.ok ? c.json(outcome.value) : errorResponse(c, outcome.error, paidDailyCap),
    );
  });
