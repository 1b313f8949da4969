/**
 * QuotaStore + PaymentStore + FeedbackStore + PaymentRequests (x402, redis-payment-requests.ts) on Redis,
 * shared by every service instance. Each writing
 * transition is one Lua script (quota-lua.ts), so instances racing on one identity or one
 * signature see exactly the rules of core/quota.ts and core/payments/signature-ledger.ts. The view is
 * one HGETALL of the identity's quota hash, computed in JS by core/quota.ts (quota-hash.ts).
 * Durability is Redis's: run it with AOF (`appendonly yes`) so paid credits and used signatures survive a restart.
 * Every failure (down, timeout, odd reply) is StoreUnavailable: the service fails closed.
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { DEFAULT_INSIGHTS_BOUNDS } from "../../core/config/config-insights.ts";
import { checkQueries } from "../../core/payments/grant-guard.ts";
import { isRemembered, SIGNATURE_MEMORY_MS } from "../../core/payments/signature-ledger.ts";
import { DEFAULT_UNATTRIBUTED_BOUNDS } from "../../core/payments/unattributed.ts";
import { CeilingCounter } from "../../core/ports/ceiling-counter.ts";
import { Conversations } from "../../core/ports/conversations.ts";
import { FeedbackStore } from "../../core/ports/feedback-store.ts";
import { InsightsStore } from "../../core/ports/insights-store.ts";
import { PaidResults } from "../../core/ports/paid-results.ts";
import { PaymentRequests } from "../../core/ports/payment-requests.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { SettlementLocks } from "../../core/ports/settlement-locks-store.ts";
import { SponsorLosses } from "../../core/ports/sponsor-losses-store.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { StoreServices } from "../../core/ports/store-services.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";
import { WalletCredits } from "../../core/ports/wallet-credits-store.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { SessionCeilings } from "../../core/sign-in/session-ceilings.ts";
import { hmacSeal, newSealKey } from "../shared/hmac-seal.ts";
import { newHoldId } from "../shared/random-ids.ts";
import { redisFeedback } from "./answers/redis-feedback.ts";
import { redisCeilingCounter } from "./ceilings/redis-ceiling-counter.ts";
import { requireNoEviction } from "./eviction-check.ts";
import { redisInsights } from "./insights/redis-insights.ts";
import { DEFAULT_KEY_PREFIX, keyLayout } from "./keys.ts";
import type { RedisStoreOptions } from "./options.ts";
import { redisPaidResults } from "./payments/redis-paid-results.ts";
import { makePaymentRequests } from "./payments/redis-payment-requests.ts";
import { redisPendingSettlements } from "./payments/redis-pending-settlements.ts";
import { redisLocks } from "./payments/redis-settlement-locks.ts";
import { redisSponsorLosses } from "./payments/redis-sponsor-losses.ts";
import { redisUnattributed } from "./payments/redis-unattributed.ts";
import { redisWalletCredits } from "./payments/redis-wallet-credits.ts";
import { MARK_USED } from "./payments/signature-lua.ts";
import { CLAIM, COMMIT, RELEASE, RESERVE } from "./quota/quota-lua.ts";
import { viewAt } from "./quota/view-at.ts";
import { endpointOf, luaScript, runCommand, runScript, urlOf } from "./redis-client.ts";
import { redisConversations } from "./redis-conversations.ts";
import { replicatedClaims } from "./replicated-claims.ts";
import { decodeClaim, decodeMarked, decodeReserve, decodeView, usedAtOf } from "./replies.ts";
import { countRoundTrips } from "./round-trips.ts";
import { connection } from "./shared-connection.ts";
import { redisSessions } from "./sign-in/redis-sessions.ts";
import { clusterMode, pingPrimaries } from "./store-client.ts";

/** The default site's key prefix, whose ledger of used signatures hosted sites share. */
export { DEFAULT_KEY_PREFIX } from "./keys.ts";
export type { RedisStoreOptions };

const SCRIPTS = {
  reserve: luaScript(RESERVE),
  commit: luaScript(COMMIT),
  release: luaScript(RELEASE),
  claim: luaScript(CLAIM),
  markUsed: luaScript(MARK_USED),
};

/** The store ports over one Redis connection, closed when the layer's scope ends. */
export const layer = (options: RedisStoreOptions): Layer.Layer<StoreServices, StoreUnavailable> =>
  Layer.effectContext(
    Effect.gen(function* () {
      const { maxCreditlessSessions } = yield* SessionCeilings;
      const client = yield* connection(options);
      yield* requireNoEviction(client, options.onUnverifiedEviction);
      const replicated = yield* replicatedClaims(client, options);
      if (options.onRoundTrip !== undefined) {
        countRoundTrips(client, options.onRoundTrip);
        if (replicated.client !== client) countRoundTrips(replicated.client, options.onRoundTrip);
      }
      const endpoint = endpointOf(urlOf(options));
      const keys = keyLayout(
        options.keyPrefix ?? DEFAULT_KEY_PREFIX,
        options.ledgerPrefix,
        clusterMode(options),
      );
      const { limits } = options;
      // Generated once by whichever instance comes first, then read by all: they seal alike.
      yield* runCommand(() => client.set(keys.sealKey, newSealKey(), "NX"));
      const sealKey = yield* runCommand(() => client.get(keys.sealKey));
      if (sealKey === null || !/^[0-9a-f]{64}$/.test(sealKey))
        return yield* new StoreUnavailable({ reason: "the request seal key is missing or corrupt" });
      const { freePerDay, paidDailyCap, holdTtlMs } = limits;
      const onQuota = (
        script: keyof typeof SCRIPTS,
        identity: string,
        now: number,
        extra: string[] = [],
        free: number = freePerDay,
      ) =>
        runScript(
          client,
          SCRIPTS[script],
          [keys.quota(identity)],
          [now, free, paidDailyCap, holdTtlMs, ...extra],
        );

      const readView = viewAt(client, keys.quota, limits);
      const quota = QuotaStore.of({
        // One plain read, no script, and no Effect.fn (a span per call).
        view: (identity, now) =>
          Effect.flatMap(
            Effect.promise(() => readView(identity, now)),
            (view) => (view instanceof StoreUnavailable ? Effect.fail(view) : Effect.succeed(view)),
          ),
        reserve: Effect.fn("RedisStore.reserve")(function* (identity, now, paidOnly) {
          const holdId = newHoldId();
          // Paid only: the script picks from no free questions (a client past its free questions across sites).
          const reply = onQuota("reserve", identity, now, [holdId], paidOnly === true ? 0 : freePerDay);
          return yield* Effect.flatMap(reply, decodeReserve(holdId));
        }),
        commit: Effect.fn("RedisStore.commit")(function* (identity, holdId, now) {
          return yield* Effect.flatMap(onQuota("commit", identity, now, [holdId]), decodeView);
        }),
        release: Effect.fn("RedisStore.release")(function* (identity, holdId, now) {
          return yield* Effect.flatMap(onQuota("release", identity, now, [holdId]), decodeView);
        }),
        // Every primary: on a cluster each holds part of the keys, and one down fails their requests.
        ping: runCommand(() => pingPrimaries(client)).pipe(
          Effect.mapError(
            ({ reason }) => new StoreUnavailable({ reason: `Redis at ${endpoint}: ${reason}` }),
          ),
          Effect.withSpan("RedisStore.ping"),
        ),
      });

      const payment = PaymentStore.of({
        durable: true,
        isClaimed: Effect.fn("RedisStore.isClaimed")(function* (signature, now) {
          const record = yield* runCommand(() => client.get(keys.signature(signature)));
          if (record === null) return false;
          const usedAt = usedAtOf(record);
          // An unreadable record counts as used: refusing a payment is recoverable, a double grant is not.
          return usedAt === undefined || isRemembered({ usedAt, identity: "", queries: 0 }, now);
        }),
        claim: Effect.fn("RedisStore.claim")(function* (signature, identity, queries, now) {
          yield* checkQueries(queries);
          const reply = yield* replicated(() =>
            runScript(
              replicated.client,
              SCRIPTS.claim,
              [keys.quota(identity), keys.signature(signature)],
              // A fresh id per call: were this exact command ever resent (ioredis is set not to resend
              // after a reconnect), the script would answer it as the success it was, not "already used".
              [
                now,
                freePerDay,
                paidDailyCap,
                holdTtlMs,
                identity,
                queries,
                SIGNATURE_MEMORY_MS,
                crypto.randomUUID(),
              ],
            ),
          );
          return yield* decodeClaim(reply);
        }),
        // The signature key alone (its usual memory), never a quota hash: nothing is credited.
        markUsed: Effect.fn("RedisStore.markUsed")(function* (signature, usedBy, now) {
          const reply = yield* replicated(() =>
            runScript(
              replicated.client,
              SCRIPTS.markUsed,
              [keys.signature(signature)],
              // A fresh id per call, as for claim: a resent command is answered as its success.
              [now, SIGNATURE_MEMORY_MS, crypto.randomUUID(), usedBy],
            ),
          );
          return yield* decodeMarked(reply);
        }),
        // The key the store wrote when references were random: read, never written again, so it
        // lapses by its own 90-day expiry.
        legacyReference: Effect.fn("RedisStore.legacyReference")(function* (identity) {
          const reference = yield* runCommand(() => client.get(keys.legacyReference(identity)));
          return reference ?? undefined;
        }),
      });
      return Context.make(QuotaStore, quota).pipe(
        Context.add(PaymentStore, payment),
        Context.add(PaymentRequests, makePaymentRequests(client, replicated, keys, limits)),
        Context.add(FeedbackStore, redisFeedback(client, keys)),
        Context.add(SettlementLocks, redisLocks(client, keys)),
        Context.add(
          PendingSettlements,
          redisPendingSettlements(client, options.keyPrefix ?? DEFAULT_KEY_PREFIX, undefined, replicated),
        ),
        Context.add(SponsorLosses, redisSponsorLosses(client, keys.sponsorPrefix)),
        Context.add(CeilingCounter, redisCeilingCounter(client, keys.ceilingPrefix)),
        Context.add(WalletCredits, redisWalletCredits(client, keys, limits)),
        Context.add(WalletSessions, redisSessions(client, keys, maxCreditlessSessions, replicated)),
        Context.add(RequestSeal, hmacSeal(sealKey)),
        Context.add(PaidResults, redisPaidResults(client, keys, undefined, replicated)),
        Context.add(Conversations, redisConversations(client, options.keyPrefix ?? DEFAULT_KEY_PREFIX)),
        Context.add(InsightsStore, redisInsights(client, keys, options.insights ?? DEFAULT_INSIGHTS_BOUNDS)),
        Context.add(
          UnattributedPayments,
          redisUnattributed(client, keys, options.unattributed ?? DEFAULT_UNATTRIBUTED_BOUNDS, replicated),
        ),
      );
    }),
  );
