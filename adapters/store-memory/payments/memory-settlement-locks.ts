/**
 * SettlementLocks in one process, by the rule of core/payments/settlement-locks.ts. Bounded:
 * lapsed locks are dropped when the map is full, and a full map of live ones refuses (the
 * payer waits) rather than grows.
 */
import * as Effect from "effect/Effect";
import {
  acquireVerdict,
  acquireVerdictOf,
  afterRelease,
  type SettlementLock,
} from "../../../core/payments/settlement-locks.ts";
import { SettlementLocks } from "../../../core/ports/settlement-locks-store.ts";

export const makeMemoryLocks = (maxLocks = 100_000) => {
  const locks = new Map<string, SettlementLock>();
  const dropLapsed = (now: number) => {
    for (const [key, lock] of locks) if (lock.until <= now) locks.delete(key);
  };
  return SettlementLocks.of({
    acquire: (keys, holder, now, ttlMs) =>
      Effect.sync(() => {
        const verdict = acquireVerdictOf(keys.map((key) => acquireVerdict(locks.get(key), holder, now)));
        if (verdict !== "acquired") return verdict;
        if (locks.size + keys.length > maxLocks) dropLapsed(now);
        // Full of live settlements: this one waits rather than the map growing.
        if (locks.size + keys.length > maxLocks) return "held-by-other";
        for (const key of keys) locks.set(key, { holder, until: now + ttlMs, cooling: false });
        return verdict;
      }),
    release: (keys, holder, now, coolDownMs) =>
      Effect.sync(() => {
        for (const key of keys) {
          const left = afterRelease(locks.get(key), holder, now, coolDownMs);
          if (left === undefined) locks.delete(key);
          else locks.set(key, left);
        }
      }),
  });
};
