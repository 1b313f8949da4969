/**
 * The in-process state behind the memory store. Every method is synchronous: the read and
 * the write of one identity happen in the same turn of the event loop, so concurrent
 * requests can never interleave inside a transition (no await between read and write).
 *
 * Memory stays bounded: `sweep` drops quota states that are back to "nothing to remember"
 * (past day, no paid credits, no holds), signatures past their 30-day memory, memo
 * references unused for 90 days and x402 payment requests past their retention. Transitions never store a blank state in the first place.
 */
import { Result } from "effect";
import type { PaymentRejected } from "../../core/payment-rejected.ts";
import { AlreadyClaimed } from "../../core/ports/payment-store.ts";
import * as Quota from "../../core/quota.ts";
import { isRemembered, markUsed, type UsedSignature } from "../../core/signature-ledger.ts";
import * as Ledger from "../../core/x402-ledger.ts";
import { REFERENCE_MEMORY_MS } from "../shared/random-ids.ts";

export interface MemoryIds {
  readonly holdId: () => string;
  readonly reference: () => string;
}

/** An issued x402 payment request and when it may be forgotten. */
interface KeptPayment {
  readonly record: Ledger.PaymentRecord;
  readonly forgetAt: number;
}

interface Reference {
  readonly reference: string;
  readonly lastUsed: number;
}

/** A state equal to a fresh identity's: nothing worth keeping. */
const isBlank = (state: Quota.QuotaState): boolean =>
  state.freeUsed === 0 && state.paidSpentToday === 0 && state.paidCredits === 0 && state.holds.length === 0;

/** Creates an empty volatile store with the given limits and id sources. */
export const makeMemoryState = (limits: Quota.QuotaLimits, ids: MemoryIds) => {
  const quotas = new Map<string, Quota.QuotaState>();
  const signatures = new Map<string, UsedSignature>();
  const references = new Map<string, Reference>();
  const owners = new Map<string, string>();
  const payments = new Map<string, KeptPayment>();
  // The newest `now` callers passed in: the sweeper's clock, so it agrees with the callers'.
  let latest = Number.NEGATIVE_INFINITY;

  const load = (identity: string, now: number): Quota.QuotaState => {
    latest = Math.max(latest, now);
    return quotas.get(identity) ?? Quota.emptyQuota(now);
  };
  const save = (identity: string, state: Quota.QuotaState): Quota.QuotaState => {
    if (isBlank(state)) quotas.delete(identity);
    else quotas.set(identity, state);
    return state;
  };

  return {
    view: (identity: string, now: number): Quota.QuotaView => Quota.view(load(identity, now), now, limits),

    reserve: (identity: string, now: number) =>
      Result.map(Quota.reserve(load(identity, now), now, ids.holdId(), limits), ([state, hold]) => ({
        hold,
        view: Quota.view(save(identity, state), now, limits),
      })),

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

    issuePayment: (issued: Ledger.IssuedPayment, now: number): void => {
      latest = Math.max(latest, now);
      const record: Ledger.PaymentRecord = { issued, state: { kind: "open" } };
      payments.set(issued.paymentId, { record, forgetAt: Ledger.forgetAt(record, now) });
    },

    findPayment: (paymentId: string, now: number): Ledger.PaymentRecord | undefined => {
      const kept = payments.get(paymentId);
      return kept !== undefined && now < kept.forgetAt ? kept.record : undefined;
    },

    /** Consumes the payment, marks the signature used and credits any grant, or does none of it. */
    claimPayment: (
      paymentId: string,
      claim: Ledger.ClaimInput,
      now: number,
    ): Result.Result<
      { readonly retry: boolean; readonly rateLimit: Quota.QuotaView | undefined },
      PaymentRejected
    > => {
      const kept = payments.get(paymentId);
      const record = kept !== undefined && now < kept.forgetAt ? kept.record : undefined;
      const claimed = Ledger.claimPayment(record, signatures.get(claim.signature), claim, now);
      if (Result.isFailure(claimed)) return Result.fail(claimed.failure);
      const { record: next, used } = claimed.success;
      payments.set(paymentId, { record: next, forgetAt: Ledger.forgetAt(next, now) });
      if (used !== undefined) signatures.set(claim.signature, used);
      const granted =
        claim.queries > 0
          ? save(claim.identity, Quota.grant(load(claim.identity, now), now, claim.queries))
          : undefined;
      return Result.succeed({
        retry: claimed.success.retry,
        rateLimit: granted === undefined ? undefined : Quota.view(granted, now, limits),
      });
    },

    finishPayment: (paymentId: string, lease: string, served: boolean, now: number): void => {
      const kept = payments.get(paymentId);
      if (kept === undefined || now >= kept.forgetAt) return;
      const next = Ledger.finishPayment(kept.record, lease, served);
      if (next !== kept.record)
        payments.set(paymentId, { record: next, forgetAt: Ledger.forgetAt(next, now) });
    },

    referenceFor: (identity: string, now: number): string => {
      latest = Math.max(latest, now);
      const known = references.get(identity);
      const fresh = known !== undefined && now - known.lastUsed < REFERENCE_MEMORY_MS;
      let reference = fresh ? known.reference : ids.reference();
      if (!fresh) {
        if (known !== undefined) owners.delete(known.reference);
        while (owners.has(reference)) reference = ids.reference();
        owners.set(reference, identity);
      }
      references.set(identity, { reference, lastUsed: now });
      return reference;
    },

    /** Forgets everything the rules no longer need, judged at `now` (default: the newest time seen). */
    sweep: (now: number = latest): void => {
      for (const [identity, state] of quotas) {
        if (isBlank(Quota.normalize(state, now))) quotas.delete(identity);
      }
      for (const [signature, entry] of signatures) {
        if (!isRemembered(entry, now)) signatures.delete(signature);
      }
      for (const [paymentId, kept] of payments) {
        if (now >= kept.forgetAt) payments.delete(paymentId);
      }
      for (const [identity, entry] of references) {
        if (now - entry.lastUsed >= REFERENCE_MEMORY_MS) {
          references.delete(identity);
          owners.delete(entry.reference);
        }
      }
    },

    /** How many entries are held, for tests of the memory bound. */
    sizes: () => ({
      quotas: quotas.size,
      signatures: signatures.size,
      references: references.size,
      payments: payments.size,
    }),
  };
};

export type MemoryState = ReturnType<typeof makeMemoryState>;
