import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import fc from "fast-check";
import {
  type Bucket,
  commit,
  emptyQuota,
  grant,
  normalize,
  type QuotaLimits,
  type QuotaState,
  release,
  reserve,
  view,
} from "../../core/quota.ts";
import { DAY_MS, utcDay } from "../../core/time.ts";
import { advanced, type QuotaOp, quotaLimits, quotaOp, startTime } from "../support/core-arbitraries.ts";

const RUNS = { numRuns: 400 };

interface Trace {
  readonly state: QuotaState;
  readonly now: number;
  readonly granted: number;
  /** Commits that consumed an open hold, i.e. answers charged. */
  readonly served: ReadonlyArray<{ readonly bucket: Bucket; readonly day: number }>;
}

/** Checks the invariants that must hold after every step. */
const checkInvariants = (trace: Trace, limits: QuotaLimits) => {
  const state = normalize(trace.state, trace.now);
  const holdsToday = (bucket: Bucket) =>
    state.holds.filter((hold) => hold.bucket === bucket && hold.day === state.day).length;
  const paidHolds = state.holds.filter((hold) => hold.bucket === "paid").length;
  const shown = view(trace.state, trace.now, limits);
  expect(shown.remaining).toBeGreaterThanOrEqual(0);
  expect(state.freeUsed).toBeGreaterThanOrEqual(0);
  expect(state.freeUsed + holdsToday("free")).toBeLessThanOrEqual(limits.freePerDay);
  expect(state.paidCredits).toBeGreaterThanOrEqual(0);
  expect(state.paidCredits).toBeGreaterThanOrEqual(paidHolds);
  expect(state.paidSpentToday + holdsToday("paid")).toBeLessThanOrEqual(limits.paidDailyCap);
  expect(shown.requiresPayment).toBe(shown.remaining === 0 && state.paidCredits - paidHolds === 0);
  // The free/paid split adds up to `remaining`, and free never exceeds the daily allowance.
  expect(shown.free + shown.paid).toBe(shown.remaining);
  expect(shown.free).toBe(limits.freePerDay - state.freeUsed - holdsToday("free"));
  expect(shown.paid).toBeLessThanOrEqual(state.paidCredits - paidHolds);
};

/** Applies ops from a fresh identity, checking invariants after each. */
const replay = (limits: QuotaLimits, start: number, ops: ReadonlyArray<QuotaOp>): Trace => {
  let trace: Trace = { state: emptyQuota(start), now: start, granted: 0, served: [] };
  const ids: string[] = [];
  for (const op of ops) {
    const { state, now } = trace;
    switch (op.kind) {
      case "reserve": {
        const id = `h${ids.length}`;
        const result = reserve(state, now, id, limits);
        if (Result.isSuccess(result)) {
          ids.push(id);
          trace = { ...trace, state: result.success[0] };
        }
        break;
      }
      case "commit": {
        const id = ids[op.pick % Math.max(1, ids.length)] ?? "none";
        const open = normalize(state, now).holds.find((hold) => hold.id === id);
        const served =
          open === undefined ? trace.served : [...trace.served, { bucket: open.bucket, day: open.day }];
        trace = { ...trace, state: commit(state, now, id), served };
        break;
      }
      case "release":
        trace = { ...trace, state: release(state, now, ids[op.pick % Math.max(1, ids.length)] ?? "none") };
        break;
      case "grant":
        trace = { ...trace, state: grant(state, now, op.queries), granted: trace.granted + op.queries };
        break;
      case "advance":
        trace = { ...trace, now: advanced(now, op.step, limits) };
        break;
      default:
        op satisfies never;
    }
    checkInvariants(trace, limits);
  }
  return trace;
};

const ops = fc.array(quotaOp, { maxLength: 80 });

describe("quota properties", () => {
  test("never negative, never over the limits, after any sequence of operations", () => {
    fc.assert(
      fc.property(quotaLimits, startTime, ops, (limits, start, list) => void replay(limits, start, list)),
      RUNS,
    );
  });

  test("answers served never exceed the free quota of each day plus the paid queries granted", () => {
    fc.assert(
      fc.property(quotaLimits, startTime, ops, (limits, start, list) => {
        const { served, granted, now } = replay(limits, start, list);
        const days = utcDay(now) - utcDay(start) + 1;
        const paid = served.filter((answer) => answer.bucket === "paid");
        expect(served.length).toBeLessThanOrEqual(limits.freePerDay * days + granted);
        expect(paid.length).toBeLessThanOrEqual(granted);
        for (let day = utcDay(start); day <= utcDay(now); day++) {
          const ofDay = served.filter((answer) => answer.day === day);
          expect(ofDay.filter((answer) => answer.bucket === "free").length).toBeLessThanOrEqual(
            limits.freePerDay,
          );
          expect(ofDay.filter((answer) => answer.bucket === "paid").length).toBeLessThanOrEqual(
            limits.paidDailyCap,
          );
        }
        // Every query granted and not yet served is still owned.
        expect(normalize(replay(limits, start, list).state, now).paidCredits).toBe(granted - paid.length);
      }),
      RUNS,
    );
  });

  test("paid credits are never lost at a day boundary", () => {
    fc.assert(
      fc.property(
        quotaLimits,
        startTime,
        ops,
        fc.integer({ min: 0, max: 5 * DAY_MS }),
        (limits, start, list, later) => {
          const { state, now } = replay(limits, start, list);
          const before = normalize(state, now);
          const nextDay = (utcDay(now) + 1) * DAY_MS + later;
          const after = normalize(state, nextDay);
          expect(after.paidCredits).toBe(before.paidCredits);
          expect(after.freeUsed).toBe(0);
          expect(after.paidSpentToday).toBe(0);
          const usable = after.paidCredits - after.holds.filter((hold) => hold.bucket === "paid").length;
          expect(view(state, nextDay, limits).remaining).toBe(
            limits.freePerDay + Math.min(usable, limits.paidDailyCap),
          );
        },
      ),
      RUNS,
    );
  });

  test("releasing a fresh reservation restores exactly the previous state", () => {
    fc.assert(
      fc.property(
        quotaLimits,
        startTime,
        ops,
        fc.integer({ min: 0, max: 2 * DAY_MS }),
        (limits, start, list, wait) => {
          const { state, now } = replay(limits, start, list);
          const reserved = reserve(state, now, "fresh-hold", limits);
          if (Result.isFailure(reserved)) return;
          expect(release(reserved.success[0], now, "fresh-hold")).toEqual(normalize(state, now));
          // Released later (even on another day), it is as if the reservation never happened.
          expect(release(reserved.success[0], now + wait, "fresh-hold")).toEqual(
            normalize(state, now + wait),
          );
        },
      ),
      RUNS,
    );
  });

  test("a reservation fails only when the view shows nothing remaining", () => {
    fc.assert(
      fc.property(quotaLimits, startTime, ops, (limits, start, list) => {
        const { state, now } = replay(limits, start, list);
        const shown = view(state, now, limits);
        const reserved = reserve(state, now, "probe", limits);
        expect(Result.isSuccess(reserved)).toBe(shown.remaining > 0);
        if (Result.isSuccess(reserved))
          expect(view(reserved.success[0], now, limits).remaining).toBe(shown.remaining - 1);
        else
          expect(reserved.failure._tag).toBe(
            shown.requiresPayment ? "QuotaExhausted" : "PaidDailyCapReached",
          );
      }),
      RUNS,
    );
  });
});
