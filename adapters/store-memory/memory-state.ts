/**
 * The in-process state behind the memory store. Every method is synchronous: the read and
 * the write of one identity happen in the same turn of the event loop, so concurrent
 * requests can never interleave inside a transition (no await between read and write).
 *
 * Memory stays bounded: `sweep` drops quota states that are back to "nothing to remember"
 * (past day, no paid credits, no holds), signatures past their 30-day memory and x402 payment
 * requests past their retention (memory-payment-requests.ts). Transitions never store a blank
 * state in the first place. Memo references are sealed (core/payments/memo-reference.ts): none
 * is kept.
 */
import * as Result from "effect/Result";
import { isRemembered, markUsed, type UsedSignature } from "../../core/payments/signature-ledger.ts";
import { AlreadyClaimed } from "../../core/ports/payment-store.ts";
import * as Quota from "../../core/quota.ts";
import { makeMemoryPaymentRequests } from "./payments/memory-payment-requests.ts";
import { makeMemoryWalletCredits } from "./payments/memory-wallet-credits.ts";

export interface MemoryIds {
  readonly holdId: () => string;
}

const NO_HOLDS: Quota.QuotaState["holds"] = Object.freeze([]);

/** A state equal to a fresh identity's: nothing worth keeping. */
const isBlank = (state: Quota.QuotaState): boolean =>
  state.freeUsed === 0 && state.paidSpentToday === 0 && state.paidCredits === 0 && state.holds.length === 0;

/** Creates an empty volatile store with the given limits and id sources. */
export const makeMemoryState = (
  limits: Quota.QuotaLimits,
  ids: MemoryIds,
  // Another store's ledger when this one serves a hosted site (used-signatures.ts).
  signatures: Map<string, UsedSignature> = new Map(),
) => {
  const quotas = new Map<string, Quota.QuotaState>();
  // The newest `now` callers passed in: the sweeper's clock, so it agrees with the callers'.
  let latest = Number.NEGATIVE_INFINITY;

  const load = (identity: string, now: number): Quota.QuotaState => {
    latest = Math.max(latest, now);
    return quotas.get(identity) ?? Quota.emptyQuota(now);
  };
  const save = (identity: string, state: Quota.QuotaState): Quota.QuotaState => {
    if (isBlank(state)) quotas.delete(identity);
    // Most states hold no hold: they share one empty array instead of each keeping its own.
    else quotas.set(identity, state.holds.length === 0 ? { ...state, holds: NO_HOLDS } : state);
    return state;
  };

  const payments = makeMemoryPaymentRequests({
    signatures,
    grant: (identity, queries, now) =>
      Quota.view(save(identity, Quota.grant(load(identity, now), now, queries)), now, limits),
    note: (now) => {
      latest = Math.max(latest, now);
    },
  });

  const blankView = Quota.blankViews(limits);
  // A client past its free questions across sites holds paid ones only.
  const paidLimits: Quota.QuotaLimits = { ...limits, freePerDay: 0 };
  return {
    /** The paid credits of wallets, in the same map (a wallet's account is never an identity). */
    wallet: makeMemoryWalletCredits(
      {
        load,
        save,
        peek: (account) => quotas.get(account),
      },
      limits,
      ids.holdId,
    ),

    view: (identity: string, now: number): Quota.QuotaView => {
      latest = Math.max(latest, now);
      const state = quotas.get(identity);
      return state === undefined ? blankView(now) : Quota.view(state, now, limits);
    },

    reserve: (identity: string, now: number, paidOnly = false) =>
      Result.map(
        Quota.reserve(load(identity, now), now, ids.holdId(), paidOnly ? paidLimits : limits),
        ([state, hold]) => ({
          hold,
          view: Quota.view(save(identity, state), now, paidOnly ? paidLimits : limits),
        }),
      ),

    commit: (identity: string, holdId: string, now: number): Quota.QuotaView =>
      Quota.view(save(identity, Quota.commit(load(identity, now), now, holdId)), now, limits),

    release: (identity: string, holdId: string, now: number): Quota.QuotaView =>
      Quota.view(save(identity, Quota.release(load(identity, now), now, holdId)), now, limits),

    isClaimed: (signature: string, now: number): boolean => isRemembered(signatures.get(signature), now),

    /** Marks the signature used and credits the identity, or (already used) does neither. */
    claim: (
      signature: string,
      identity: string,
      queries: number,
      now: number,
    ): Result.Result<Quota.QuotaView, AlreadyClaimed> => {
      const used = markUsed(signatures.get(signature), now, identity, queries);
      if (used === undefined) return Result.fail(new AlreadyClaimed());
      signatures.set(signature, used);
      const state = save(identity, Quota.grant(load(identity, now), now, queries));
      return Result.succeed(Quota.view(state, now, limits));
    },

    /** Marks the signature used, crediting no one, or (already used) does nothing. */
    markUsed: (signature: string, usedBy: string, now: number): Result.Result<void, AlreadyClaimed> => {
      latest = Math.max(latest, now);
      const used = markUsed(signatures.get(signature), now, usedBy, 0);
      if (used === undefined) return Result.fail(new AlreadyClaimed());
      signatures.set(signature, used);
      return Result.succeed(undefined);
    },

    ...payments,

    /** Forgets everything the rules no longer need, judged at `now` (default: the newest time seen). */
    sweep: (now: number = latest): void => {
      for (const [identity, state] of quotas) {
        if (isBlank(Quota.normalize(state, now))) quotas.delete(identity);
      }
      for (const [signature, entry] of signatures) {
        if (!isRemembered(entry, now)) signatures.delete(signature);
      }
      payments.sweepPayments(now);
    },

    /** How many entries are held, for tests of the memory bound. */
    sizes: () => ({
      quotas: quotas.size,
      signatures: signatures.size,
      payments: payments.paymentCount(),
    }),
  };
};

export type MemoryState = ReturnType<typeof makeMemoryState>;
