/**
 * Follows every sponsored settlement left pending (core/payments/pending-settlement.ts) to a
 * final state, one instance at a time (a lease in the store), every RECONCILE_EVERY_MS:
 *
 *   landed   /api/chat: the paying wallet is credited its queries, by the ledger's own
 *            exactly-once steps (the claim's finish under its lease, else a granting retry
 *            claim of the same transaction); a paywalled route: its record is open to the same
 *            payload, which is then served without anything sent; the facilitator API: kept a
 *            day for the partner's second settle, which then succeeds.
 *   failed, or its blockhash expired unseen: nothing was taken; the record closed.
 *   unknown  (still in flight, or the RPC cannot say): left for the next round.
 *
 * Each step is idempotent, so a reconciler that dies halfway, two that overlap after a lapsed
 * lease, or a retry of the same payload racing it, credit once.
 *
 * Reading a fate is two RPC calls (the blockhash's validity, the signature's status), one chain
 * lookup of the service's budget (core/payments/chain-lookup-budget.ts), admitted before the
 * calls as every other lookup is, under the one client RECONCILER_CLIENT: the reconcilers of
 * all sites together take at most the per-client ceiling (30 a minute) of the service's 600, and
 * an entry the budget refuses waits for a later round. An entry nothing can credit any more (its
 * payment record forgotten, or older than GIVE_UP_AFTER_MS) is given up: closed, counted
 * (x402_reconcile_given_up_total) and logged as an error naming the payer and the transaction,
 * for the operator to refund; before, it was read on the RPC every round forever.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import {
  FACILITATOR_PENDING_RETENTION_MS,
  type Fate,
  type GiveUpReason,
  isDue,
  isTooOld,
  type PendingSettlement,
  RECONCILER_LEASE_MS,
} from "../../../core/payments/pending-settlement.ts";
import { standingOf } from "../../../core/payments/x402-ledger.ts";
import type { CeilingCounter } from "../../../core/ports/ceiling-counter.ts";
import { PaymentRequests } from "../../../core/ports/payment-requests.ts";
import { PendingSettlements } from "../../../core/ports/pending-settlements.ts";
import { admitChainLookup } from "../../../core/use-cases/reserve-chain-lookup.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import type { Logger } from "../../observability/log.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { FeePayer } from "./fee-payer.ts";

/** How often each instance looks (the lease lets one of them act). */
export const RECONCILE_EVERY_MS = 30_000;
/** Entries followed per round: the rest wait for the next. */
const PER_ROUND = 500;
/** The client the reconcilers' chain lookups are counted under (one for the whole service). */
export const RECONCILER_CLIENT = "x402-reconciler";

export type RunReconcile = <A, E>(
  effect: Effect.Effect<A, E, PendingSettlements | PaymentRequests | CeilingCounter>,
) => Promise<Outcome<A, E>>;

export interface ReconcilerDeps {
  readonly run: RunReconcile;
  readonly feePayer: Pick<FeePayer, "fate">;
  readonly logger: Logger;
  readonly metrics?: Metrics;
  /** Entries younger than this are their sender's (default RECONCILE_AFTER_MS). */
  readonly afterMs?: number;
}

/** What one round did: entries closed by fate, and whether this instance held the lease. */
export interface ReconcileRound {
  readonly ran: boolean;
  readonly closed: Partial<Record<Fate, number>>;
  readonly credited: number;
}

/** Admits one fate read (two RPC calls) in the chain lookup budget, or says no (nothing is counted then). */
const admitFateRead = (entry: PendingSettlement) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis;
    const verdict = yield* admitChainLookup({ client: RECONCILER_CLIENT, signature: entry.signature }, now);
    return verdict.admitted;
  });

/**
 * The chat's due: credited once, by whichever ledger step still can. "done" when it is settled
 * (credited here or before), "forgotten" when its record is gone (nothing can credit it now).
 */
const creditLanded = (entry: PendingSettlement) =>
  Effect.gen(function* () {
    const requests = yield* PaymentRequests;
    const now = yield* Clock.currentTimeMillis;
    const grant = { identity: entry.identity, queries: entry.queries };
    const finished = yield* requests.finish(entry.paymentId, entry.lease, true, now, grant);
    if (finished.changed) return "credited" as const;
    const claimed = yield* Effect.result(
      requests.claim(
        {
          paymentId: entry.paymentId,
          binding: { resource: entry.resource, method: entry.method },
          signature: entry.signature,
          paidAt: now,
          grant,
        },
        now,
      ),
    );
    if (claimed._tag === "Success") return "credited" as const;
    // Refused: served already (by a retry), or a retry holds it right now (next round).
    const record = yield* requests.find(entry.paymentId, now);
    if (record === undefined) return "forgotten" as const;
    return standingOf(record, entry.signature) === "served" ? ("done" as const) : ("later" as const);
  });

/** One round, if this instance gets the lease: each due entry's fate read and acted on. */
export const reconcileOnce = async (deps: ReconcilerDeps, holder: string): Promise<ReconcileRound> => {
  const { run, logger } = deps;
  const closed: Partial<Record<Fate, number>> = {};
  let credited = 0;
  const leased = await run(
    Effect.flatMap(PendingSettlements, (pending) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        pending.claimReconciler(holder, now, RECONCILER_LEASE_MS),
      ),
    ),
  );
  if (!leased.ok || !leased.value) return { ran: false, closed, credited };
  try {
    const listed = await run(Effect.flatMap(PendingSettlements, (pending) => pending.list(PER_ROUND)));
    if (!listed.ok) return { ran: true, closed, credited };
    for (const entry of listed.value) {
      const now = Date.now();
      if (!isDue(entry, now, deps.afterMs)) continue;
      if (isTooOld(entry, now)) {
        await giveUp(deps, entry, "too-old");
        continue;
      }
      const admitted = await run(admitFateRead(entry));
      // Refused for this client or for everyone: so would the rest be this round.
      if (!admitted.ok || !admitted.value) break;
      const fate = await deps.feePayer.fate(entry.signature, entry.blockhash).catch(() => "unknown" as const);
      if (fate === "unknown") continue;
      let done = true;
      if (entry.kind === "credit" && fate === "landed") {
        const outcome = await run(creditLanded(entry));
        if (outcome.ok && outcome.value === "forgotten") {
          await giveUp(deps, entry, "record-forgotten");
          continue;
        }
        done = outcome.ok && outcome.value !== "later";
        if (outcome.ok && outcome.value === "credited") {
          credited += 1;
          logger.info("x402 v2 pending settlement landed: the paying wallet is credited", {
            transaction: entry.signature,
            paymentId: entry.paymentId,
            queries: entry.queries,
          });
        }
      } else if (entry.kind === "facilitator") {
        // Landed: the partner's second settle of the same transaction succeeds (and closes it).
        done = fate !== "landed" || now - entry.since >= FACILITATOR_PENDING_RETENTION_MS;
      } else if (entry.paymentId !== "") {
        // Open to the same transaction only: served without sending if it landed; never anything else.
        const released = await run(
          Effect.flatMap(PaymentRequests, (requests) =>
            requests.finish(entry.paymentId, entry.lease, false, now),
          ),
        );
        done = released.ok;
      }
      if (!done) continue;
      if (await closeEntry(run, entry)) {
        closed[fate] = (closed[fate] ?? 0) + 1;
        deps.metrics?.count("x402_reconciled_total", { kind: entry.kind, fate });
        if (fate !== "landed")
          logger.info(
            "x402 v2 pending settlement closed: failed on chain or never landed, the payer was charged nothing",
            {
              transaction: entry.signature,
              fate,
            },
          );
      }
    }
    return { ran: true, closed, credited };
  } finally {
    await run(Effect.flatMap(PendingSettlements, (pending) => pending.releaseReconciler(holder)));
  }
};

/** Closes an entry nothing can settle any more; counted, and logged for the operator to refund by hand. */
const giveUp = async (deps: ReconcilerDeps, entry: PendingSettlement, reason: GiveUpReason) => {
  if (!(await closeEntry(deps.run, entry))) return;
  deps.metrics?.count("x402_reconcile_given_up_total", { kind: entry.kind, reason });
  deps.logger.error(
    "x402 v2 pending settlement given up: nothing can settle it any more; refund by hand if it landed",
    {
      transaction: entry.signature,
      kind: entry.kind,
      reason,
      paymentId: entry.paymentId,
      payer: entry.payer,
      queries: entry.queries,
    },
  );
};

const closeEntry = async (run: RunReconcile, entry: PendingSettlement) => {
  const closed = await run(
    Effect.flatMap(PendingSettlements, (pending) => pending.close(entry.signature, entry.lease)),
  );
  return closed.ok && closed.value;
};

/** Whether the store holds no pending settlement (false when it cannot say). */
const nothingPending = async (run: RunReconcile) => {
  const listed = await run(Effect.flatMap(PendingSettlements, (pending) => pending.list(1)));
  return listed.ok && listed.value.length === 0;
};

/**
 * Runs a round every `everyMs` in the background; `stop` waits for the one in flight. `drain`
 * (a removed site's) keeps the rounds going until one finds nothing pending, then stops: its
 * pending settlements are followed to their end though nothing serves the site any more.
 */
export const startReconciler = (deps: ReconcilerDeps, everyMs: number = RECONCILE_EVERY_MS) => {
  const holder = crypto.randomUUID();
  deps.logger.info("x402 v2 reconciler started: pending settlements are followed to their end", { everyMs });
  let running: Promise<unknown> = Promise.resolve();
  let draining = false;
  let drained: () => void = () => undefined;
  const whenDrained = new Promise<void>((resolve) => {
    drained = resolve;
  });
  const round = async () => {
    await reconcileOnce(deps, holder);
    if (!draining || !(await nothingPending(deps.run))) return;
    clearInterval(timer);
    deps.logger.info("x402 v2 reconciler stopped: nothing is pending any more");
    drained();
  };
  const timer = setInterval(() => {
    running = round().catch((error: unknown) =>
      deps.logger.error("x402 v2 reconciler round failed", { cause: String(error) }),
    );
  }, everyMs);
  (timer as { unref?: () => void }).unref?.();
  return {
    /** Resolves once a round finds nothing pending (the rounds stop then), or at `stop`. */
    drain: () => {
      draining = true;
      return whenDrained;
    },
    stop: async () => {
      clearInterval(timer);
      await running;
      drained();
    },
  };
};
