/**
 * The one counter of every windowed ceiling shared by the instances (core/ceilings/ceilings.ts).
 * A request names every counter it must fit (say a client's and everyone's), and the store checks
 * them all, then counts it in all, in one atomic step (one Lua script on Redis), or counts nothing
 * and names the ceiling that refused: a refusal costs nothing of any ceiling. Keys are built by the
 * caller (core/ceilings/counters.ts), so the store never composes one.
 *
 * Why not rate-limiter-flexible (memory and Redis backends): it admits one key per call, so "the
 * client's and everyone's, all or none" would take a transaction of our own around it; it has no
 * counter of distinct members (a payment_id's signatures); and a refusal of its second key would
 * already have spent the first. One script of ours does the three in one round trip. It was not
 * benchmarked against this: the deciding reasons are these semantics, not speed.
 */
import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { CeilingName } from "../ceilings/ceilings.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/**
 * How a counter counts, named rather than read from an empty member so that both stores agree:
 * "count" adds one per request; "distinct" adds its member (one already counted passes and takes
 * nothing: a payment_id's signatures, a free question's hold); "check" must have room but counts
 * nothing (a ceiling counted elsewhere, asked before the work it would count starts).
 */
export type CounterKind = "count" | "distinct" | "check";

/** One counter a request must fit. */
export interface Counter {
  readonly ceiling: CeilingName;
  readonly kind: CounterKind;
  /** The counter's whole key (the window's number in it for a fixed window). */
  readonly key: string;
  readonly limit: number;
  /** The counter is kept at least this long from now (its window's end, plus a margin). */
  readonly keepMs: number;
  /** When a refusal by it ends (epoch ms; its window's end); undefined: not while the key lives. */
  readonly freesAt: number | undefined;
  /** The member a "distinct" counter counts (ignored by the other kinds). */
  readonly member?: string | undefined;
}

/** What a kept member is renamed to: a giveBack names the member, so it no longer finds it. */
export const KEPT_SUFFIX = ":kept";
export const keptMember = (member: string) => `${member}${KEPT_SUFFIX}`;

export type CounterVerdict =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly refusedBy: Counter };

export class CeilingCounter extends Context.Service<
  CeilingCounter,
  {
    /**
     * Checks every counter, in order; counts in all when each has room, else names the first full
     * one. A key named twice by counters that count is a defect (it would pass its limit by one).
     */
    readonly admit: (
      counters: ReadonlyArray<Counter>,
      now: number,
    ) => Effect.Effect<CounterVerdict, StoreUnavailable>;
    /**
     * Takes one back from each counter still alive (a free question that was declined after
     * all): what was given back counts no longer. A "distinct" counter gives back its member only,
     * so giving back twice, or a member never counted, gives nothing.
     */
    readonly giveBack: (
      counters: ReadonlyArray<Counter>,
      now: number,
    ) => Effect.Effect<void, StoreUnavailable>;
    /**
     * Marks the member of each "distinct" counter as spent for good (a free question answered): it
     * still counts, and a later giveBack of it gives nothing back (the other kinds are left as
     * they are). The store renames it to keptMember(member) in the same step.
     */
    readonly keep: (counters: ReadonlyArray<Counter>, now: number) => Effect.Effect<void, StoreUnavailable>;
    /** What the counter holds now (a read: nothing counted); 0 when it is not held. */
    readonly used: (counter: Counter, now: number) => Effect.Effect<number, StoreUnavailable>;
  }
>()("core/CeilingCounter") {}
