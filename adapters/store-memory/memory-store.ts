/**
 * QuotaStore + PaymentStore + PaymentRequests + FeedbackStore + InsightsStore in process
 * memory. VOLATILE: a restart forgets free-query counters, paid credits, used signatures and
 * issued x402 payment requests, and draws a new seal key (so new memo references), and several
 * instances do not share it. For local development, tests and single-instance demos; production
 * uses Redis.
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Result from "effect/Result";
import { DEFAULT_INSIGHTS_BOUNDS } from "../../core/config/config-insights.ts";
import { checkGrant, checkQueries } from "../../core/payments/grant-guard.ts";
import { MAX_PAID_RESULTS } from "../../core/payments/payment-identifier.ts";
import type { UsedSignature } from "../../core/payments/signature-ledger.ts";
import { DEFAULT_UNATTRIBUTED_BOUNDS, type UnattributedBounds } from "../../core/payments/unattributed.ts";
import { combinedView } from "../../core/payments/wallet-credits.ts";
import { claimInput } from "../../core/payments/x402-claim.ts";
import { CeilingCounter } from "../../core/ports/ceiling-counter.ts";
import { Conversations } from "../../core/ports/conversations.ts";
import { FeedbackStore } from "../../core/ports/feedback-store.ts";
import { HeldSizes } from "../../core/ports/held-sizes.ts";
import { type InsightsBounds, InsightsStore } from "../../core/ports/insights-store.ts";
import { PaidResults } from "../../core/ports/paid-results.ts";
import { PaymentRequests } from "../../core/ports/payment-requests.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { SettlementLocks } from "../../core/ports/settlement-locks-store.ts";
import { SponsorLosses } from "../../core/ports/sponsor-losses-store.ts";
import type { StoreServices } from "../../core/ports/store-services.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";
import { WalletCredits } from "../../core/ports/wallet-credits-store.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import { SessionCeilings } from "../../core/sign-in/session-ceilings.ts";
import { hmacSeal, newSealKey } from "../shared/hmac-seal.ts";
import { newHoldId } from "../shared/random-ids.ts";
import { MAX_ANSWERS, makeMemoryFeedback } from "./answers/memory-feedback.ts";
import { makeMemoryCeilingCounter } from "./ceilings/memory-ceiling-counter.ts";
import { makeMemoryInsights } from "./insights/memory-insights.ts";
import { makeMemoryConversations } from "./memory-conversations.ts";
import { makeMemoryState } from "./memory-state.ts";
import { makeMemoryPaidResults } from "./payments/memory-paid-results.ts";
import { makeMemoryPendingSettlements } from "./payments/memory-pending-settlements.ts";
import { makeMemoryLocks } from "./payments/memory-settlement-locks.ts";
import { makeMemorySponsorLosses } from "./payments/memory-sponsor-losses.ts";
import { makeMemoryUnattributed } from "./payments/memory-unattributed.ts";
import type { LinkAccess } from "./payments/memory-wallet-credits.ts";
import { makeReserveAsPayer } from "./payments/reserve-as-payer.ts";
import { UsedSignatures } from "./payments/used-signatures.ts";
import { makeMemorySessions } from "./sign-in/memory-sessions.ts";

/** How often forgotten state is swept out. */
const SWEEP_INTERVAL_MS = 60_000;

/** Starts the sweeper without keeping the process alive on its account. */
const startSweeper = (sweep: () => void) => {
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  // Bun and Node return an object with unref; Deno returns a number (and the scope clears it).
  if (typeof timer === "object" && timer !== null && "unref" in timer) timer.unref();
  return timer;
};

/**
 * The store ports over one in-memory state, with a sweeper living as long as the layer, and how
 * much each part holds (/metrics).
 */
export const layer = (
  limits: QuotaLimits,
  insightsBounds: InsightsBounds = DEFAULT_INSIGHTS_BOUNDS,
  unattributedBounds: UnattributedBounds = DEFAULT_UNATTRIBUTED_BOUNDS,
): Layer.Layer<StoreServices | HeldSizes | UsedSignatures> =>
  Layer.effectContext(
    Effect.gen(function* () {
      // The ledger given (the service's, for a hosted site's store), else a new one.
      const given = yield* Effect.serviceOption(UsedSignatures);
      const ledger = Option.getOrElse(given, () => new Map<string, UsedSignature>());
      const state = makeMemoryState(limits, { holdId: newHoldId }, ledger);
      const { maxCreditlessSessions } = yield* SessionCeilings;
      const sessionState = makeMemorySessions(state.wallet.holdsCredits, maxCreditlessSessions);
      const paid = makeMemoryPaidResults();
      yield* Effect.acquireRelease(
        Effect.sync(() =>
          startSweeper(() => {
            state.sweep();
            sessionState.sweep();
            paid.sweep();
          }),
        ),
        (timer) => Effect.sync(() => clearInterval(timer)),
      );
      const quota = QuotaStore.of({
        view: (identity, now) => Effect.sync(() => state.view(identity, now)),
        reserve: (identity, now, paidOnly) =>
          Effect.suspend(() => Effect.fromResult(state.reserve(identity, now, paidOnly))),
        commit: (identity, holdId, now) => Effect.sync(() => state.commit(identity, holdId, now)),
        release: (identity, holdId, now) => Effect.sync(() => state.release(identity, holdId, now)),
        ping: Effect.void,
      });
      const payment = PaymentStore.of({
        durable: false,
        isClaimed: (signature, now) => Effect.sync(() => state.isClaimed(signature, now)),
        claim: (signature, identity, queries, now) =>
          Effect.andThen(
            checkQueries(queries),
            Effect.suspend(() => Effect.fromResult(state.claim(signature, identity, queries, now))),
          ),
        markUsed: (signature, usedBy, now) =>
          Effect.suspend(() => Effect.fromResult(state.markUsed(signature, usedBy, now))),
        // References were random and kept in memory before they were sealed: none outlived a restart.
        legacyReference: () => Effect.succeed(undefined),
      });
      const requests = PaymentRequests.of({
        issue: (issued, now) => Effect.sync(() => state.issuePayment(issued, now)),
        find: (paymentId, now) => Effect.sync(() => state.findPayment(paymentId, now)),
        claim: (claim, now) =>
          Effect.andThen(
            checkGrant(claim.grant),
            Effect.suspend(() => {
              const lease = newHoldId();
              return Effect.fromResult(
                Result.map(state.claimPayment(claim.paymentId, claimInput(claim, lease), now), (claimed) => ({
                  lease,
                  ...claimed,
                })),
              );
            }),
          ),
        finish: (paymentId, lease, served, now, grant) =>
          Effect.andThen(
            checkGrant(grant),
            Effect.sync(() => state.finishPayment(paymentId, lease, served, now, grant)),
          ),
      });
      // A spend through an identity's payer link reads and writes that link beside the wallet.
      const linkOf = (wallet: string, through: string | undefined): LinkAccess | undefined =>
        through === undefined
          ? undefined
          : {
              load: (now) => sessionState.linkOf(through, wallet, now),
              save: (link) => sessionState.saveLink(through, link),
            };
      const asPayer = makeReserveAsPayer({
        linked: sessionState.linked,
        onWallet: (wallet, identity, now) => state.wallet.reserve(wallet, now, linkOf(wallet, identity)),
        onIdentity: state.reserve,
      });
      const wallets = WalletCredits.of({
        view: (wallet, now, through) =>
          Effect.sync(() => state.wallet.view(wallet, now, linkOf(wallet, through))),
        reserve: (wallet, now, through) =>
          Effect.suspend(() => Effect.fromResult(state.wallet.reserve(wallet, now, linkOf(wallet, through)))),
        viewAsPayer: (identity, now) =>
          Effect.sync(() => {
            const own = state.view(identity, now);
            const wallet = sessionState.linked(identity, now);
            if (wallet === undefined) return own;
            return combinedView(own, state.wallet.view(wallet, now, linkOf(wallet, identity)));
          }),
        reserveAsPayer: (identity, now) => Effect.suspend(() => Effect.fromResult(asPayer(identity, now))),
        holdsCredits: (wallet) => Effect.sync(() => state.wallet.holdsCredits(wallet)),
        commit: (wallet, holdId, now, through) =>
          Effect.sync(() => state.wallet.commit(wallet, holdId, now, linkOf(wallet, through))),
        release: (wallet, holdId, now, through) =>
          Effect.sync(() => state.wallet.release(wallet, holdId, now, linkOf(wallet, through))),
      });
      const sessions = WalletSessions.of({
        open: (tokenHash, wallet, expiresAt, now) =>
          Effect.sync(() => sessionState.open(tokenHash, wallet, expiresAt, now)),
        find: (tokenHash, now) => Effect.sync(() => sessionState.find(tokenHash, now)),
        close: (tokenHash, now) => Effect.sync(() => sessionState.close(tokenHash, now)),
        closeAll: (wallet, now) => Effect.sync(() => sessionState.closeAll(wallet, now)),
        link: (identity, wallet, queries, expiresAt, now) =>
          Effect.sync(() => sessionState.link(identity, wallet, queries, expiresAt, now)),
        linked: (identity, now) => Effect.sync(() => sessionState.linked(identity, now)),
        nonceUsed: (nonce, now) => Effect.sync(() => sessionState.nonceUsed(nonce, now)),
        useNonce: (nonce, expiresAt, now) => Effect.sync(() => sessionState.useNonce(nonce, expiresAt, now)),
        countSignIn: (wallet, now) => Effect.sync(() => sessionState.countSignIn(wallet, now)),
      });
      const votes = makeMemoryFeedback(() => crypto.randomUUID());
      const feedback = FeedbackStore.of({
        issue: (identity, now) => Effect.sync(() => votes.issue(identity, now)),
        record: (identity, given) => Effect.suspend(() => Effect.fromResult(votes.record(identity, given))),
      });
      const log = makeMemoryInsights(insightsBounds);
      const insights = InsightsStore.of({
        append: (event) => Effect.sync(() => log.append(event)),
        between: (from, to, now) => Effect.sync(() => log.between(from, to, now)),
      });
      const ceilings = makeMemoryCeilingCounter();
      const unattributed = makeMemoryUnattributed(unattributedBounds);
      const held = HeldSizes.of({
        sizes: () => {
          const { quotas, signatures, payments } = state.sizes();
          const signedIn = sessionState.sizes();
          return [
            { structure: "quota_states", entries: quotas },
            { structure: "used_signatures", entries: signatures },
            { structure: "payment_requests", entries: payments },
            { structure: "answer_ids", entries: votes.size(), cap: MAX_ANSWERS },
            { structure: "insight_events", entries: log.size(), cap: insightsBounds.maxEvents },
            { structure: "wallet_sessions", entries: signedIn.sessions },
            { structure: "evictable_sessions", entries: signedIn.evictable, cap: maxCreditlessSessions },
            { structure: "payer_links", entries: signedIn.links },
            { structure: "sign_in_nonces", entries: signedIn.nonces },
            { structure: "sign_in_counts", entries: signedIn.signIns },
            { structure: "payment_lookups", entries: ceilings.distinctSize() },
            { structure: "ceiling_counters", entries: ceilings.size() },
            {
              structure: "unattributed_payments",
              entries: unattributed.size(),
              cap: unattributedBounds.maxEntries,
            },
            { structure: "paid_results", entries: paid.size(), cap: MAX_PAID_RESULTS },
          ];
        },
      });
      return Context.make(QuotaStore, quota).pipe(
        Context.add(PaymentStore, payment),
        Context.add(PaymentRequests, requests),
        Context.add(FeedbackStore, feedback),
        Context.add(InsightsStore, insights),
        Context.add(SettlementLocks, makeMemoryLocks()),
        Context.add(UsedSignatures, ledger),
        Context.add(PendingSettlements, makeMemoryPendingSettlements()),
        Context.add(SponsorLosses, makeMemorySponsorLosses()),
        Context.add(CeilingCounter, ceilings.counter),
        Context.add(WalletCredits, wallets),
        Context.add(WalletSessions, sessions),
        Context.add(HeldSizes, held),
        Context.add(UnattributedPayments, unattributed.store),
        // One process, one store: a key of its own seals its 402s and challenges.
        Context.add(RequestSeal, hmacSeal(newSealKey())),
        Context.add(PaidResults, paid.results),
        Context.add(Conversations, makeMemoryConversations()),
      );
    }).pipe(Effect.withSpan("MemoryStore.layer")),
  );
