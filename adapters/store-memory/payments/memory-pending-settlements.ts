/** PendingSettlements in one process, by the rule of core/payments/pending-settlement.ts. */
import * as Effect from "effect/Effect";
import { closes, type PendingSettlement, recordPending } from "../../../core/payments/pending-settlement.ts";
import { PendingSettlements } from "../../../core/ports/pending-settlements.ts";

export const makeMemoryPendingSettlements = (max?: number) => {
  let table = new Map<string, PendingSettlement>();
  let lease: { holder: string; until: number } | undefined;
  return PendingSettlements.of({
    record: (entry) =>
      Effect.sync(() => {
        const next = recordPending(table, entry, max);
        if (next === undefined) return false;
        table = next;
        return true;
      }),
    find: (signature) => Effect.sync(() => table.get(signature)),
    list: (count) => Effect.sync(() => [...table.values()].slice(0, count)),
    close: (signature, owner) =>
      Effect.sync(() => {
        if (!closes(table.get(signature), owner)) return false;
        table.delete(signature);
        return true;
      }),
    claimReconciler: (holder, now, ttlMs) =>
      Effect.sync(() => {
        // As Redis's SET NX: a live lease is nobody's to take, not even its holder's.
        if (lease !== undefined && lease.until > now) return false;
        lease = { holder, until: now + ttlMs };
        return true;
      }),
    releaseReconciler: (holder) =>
      Effect.sync(() => {
        if (lease?.holder === holder) lease = undefined;
      }),
  });
};
