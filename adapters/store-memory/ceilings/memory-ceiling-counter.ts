/**
 * CeilingCounter in one process: the same rule as the Redis script (check every counter, count
 * in all or in none). Only admitted requests write, so what it holds grows with the ceilings,
 * not with the requests refused; counters past their keep time are dropped each time a sweep is
 * due (at most once a second, on the next call).
 */
import * as Effect from "effect/Effect";
import { duplicateKey } from "../../../core/ceilings/counters.ts";
import { CeilingCounter, type Counter, keptMember } from "../../../core/ports/ceiling-counter.ts";

interface Held {
  count: number;
  members: Set<string> | undefined;
  keepUntil: number;
}

const SWEEP_EVERY_MS = 1_000;

export const makeMemoryCeilingCounter = () => {
  const held = new Map<string, Held>();
  let nextSweep = 0;
  const sweep = (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + SWEEP_EVERY_MS;
    for (const [key, entry] of held) if (entry.keepUntil <= now) held.delete(key);
  };
  const live = (key: string, now: number) => {
    const entry = held.get(key);
    return entry !== undefined && entry.keepUntil > now ? entry : undefined;
  };
  const full = (counter: Counter, now: number) => {
    const entry = live(counter.key, now);
    if (counter.kind !== "distinct") return (entry?.count ?? 0) >= counter.limit;
    const members = entry?.members;
    return !(members?.has(counter.member ?? "") ?? false) && (members?.size ?? 0) >= counter.limit;
  };
  const count = (counter: Counter, now: number) => {
    if (counter.kind === "check") return;
    const entry = live(counter.key, now) ?? { count: 0, members: undefined, keepUntil: 0 };
    if (counter.kind === "count") entry.count += 1;
    else {
      entry.members ??= new Set();
      entry.members.add(counter.member ?? "");
    }
    entry.keepUntil = Math.max(entry.keepUntil, now + counter.keepMs);
    held.set(counter.key, entry);
  };
  const counter = CeilingCounter.of({
    admit: (counters, now) =>
      Effect.sync(() => {
        const twice = duplicateKey(counters);
        if (twice !== undefined) throw new Error(`counter ${twice} named twice in one admit`);
        sweep(now);
        const refusedBy = counters.find((candidate) => full(candidate, now));
        if (refusedBy !== undefined) return { admitted: false, refusedBy } as const;
        for (const each of counters) count(each, now);
        return { admitted: true } as const;
      }),
    giveBack: (counters, now) =>
      Effect.sync(() => {
        for (const each of counters) {
          const entry = live(each.key, now);
          if (entry === undefined || each.kind === "check") continue;
          if (each.kind === "distinct") entry.members?.delete(each.member ?? "");
          else entry.count = Math.max(0, entry.count - 1);
        }
      }),
    keep: (counters, now) =>
      Effect.sync(() => {
        for (const each of counters) {
          const members = each.kind === "distinct" ? live(each.key, now)?.members : undefined;
          if (members?.delete(each.member ?? "") === true) members.add(keptMember(each.member ?? ""));
        }
      }),
    used: (counter, now) =>
      Effect.sync(() => {
        const entry = live(counter.key, now);
        return counter.kind === "distinct" ? (entry?.members?.size ?? 0) : (entry?.count ?? 0);
      }),
  });
  return {
    counter,
    /** Counters held (a lapsed one until the next sweep). */
    size: () => held.size,
    /** Of them, the counters of distinct members (a payment_id's signatures). */
    distinctSize: () => {
      let count = 0;
      for (const entry of held.values()) if (entry.members !== undefined) count++;
      return count;
    },
  };
};
