/**
 * The counters of a windowed ceiling: its key for a subject in the window `now` falls in, how
 * long the store keeps it, and when a refusal by it ends. Windows are fixed, aligned on the epoch
 * (a minute window turns on the UTC minute, a day window at UTC midnight), so every instance
 * agrees on them from the clock alone. A fixed window admits up to twice its limit across a
 * window's edge (a burst at the end of one and the start of the next); every ceiling's limit is
 * set with that in mind, as the table's header says.
 */
import type { Counter } from "../ports/ceiling-counter.ts";
import { CEILINGS, type CeilingName } from "./ceilings.ts";

/** A window's counter outlives it a little, so clocks a second apart never read a fresh zero. */
export const WINDOW_MARGIN_MS = 5_000;

/** The window of `windowMs` that `now` falls in: its number and its end. */
export const windowAt = (windowMs: number, now: number) => {
  const index = Math.floor(now / windowMs);
  return { index, endsAt: (index + 1) * windowMs };
};

/**
 * The counter of windowed ceiling `name` for `subject` (a client address, or "all") at `now`,
 * holding at most `limit`.
 */
export const windowCounter = (name: CeilingName, subject: string, limit: number, now: number): Counter => {
  const windowMs = CEILINGS[name].windowMs;
  if (windowMs === undefined) throw new Error(`ceiling ${name} has no window`);
  const { index, endsAt } = windowAt(windowMs, now);
  return {
    ceiling: name,
    kind: "count",
    key: `ceiling:${name}:${index}:${subject}`,
    limit,
    keepMs: endsAt - now + WINDOW_MARGIN_MS,
    freesAt: endsAt,
  };
};

/**
 * As windowCounter, counting distinct `member`s in the window (each free question's hold), so a
 * member given back twice, or never counted, gives nothing back. Its own key (a set, not a count).
 */
export const windowMembersCounter = (
  name: CeilingName,
  subject: string,
  member: string,
  limit: number,
  now: number,
): Counter => {
  const counter = windowCounter(name, subject, limit, now);
  return { ...counter, kind: "distinct", key: `${counter.key}:members`, member };
};

/**
 * `counter` checked for room only: nothing counted in it (it is counted when its work happens).
 * A count only: a check reads a number, and a set of members holds none (Redis would refuse the read).
 */
export const checkOnly = (counter: Counter): Counter => {
  if (counter.kind !== "count")
    throw new Error(`only a count is checked, not ${counter.ceiling}'s ${counter.kind}`);
  return { ...counter, kind: "check", member: undefined };
};

/** The first key two counting counters share, if any (a check may share its key with one). */
export const duplicateKey = (counters: ReadonlyArray<Counter>): string | undefined => {
  const seen = new Set<string>();
  for (const counter of counters) {
    if (counter.kind === "check") continue;
    if (seen.has(counter.key)) return counter.key;
    seen.add(counter.key);
  }
  return undefined;
};

/** The counter of distinct `member`s of `subject`, kept `keepMs` from now (at least), never freed early. */
export const distinctCounter = (
  name: CeilingName,
  subject: string,
  member: string,
  limit: number,
  keepMs: number,
): Counter => ({
  ceiling: name,
  kind: "distinct",
  key: `ceiling:${name}:${subject}`,
  limit,
  keepMs: Math.max(1, keepMs),
  freesAt: undefined,
  member,
});

/** Milliseconds until a refusal by `counter` ends; undefined: not while it lives. */
export const retryAfterMs = (counter: Counter, now: number): number | undefined =>
  counter.freesAt === undefined ? undefined : Math.max(0, counter.freesAt - now);
