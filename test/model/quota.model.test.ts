/**
 * Model-based test of the quota machine: random command sequences run against the real pure
 * transitions (core/quota.ts) and against a tiny ledger model that keeps every hold with its
 * fate and derives all counts from it, so the two are written differently and must agree.
 */
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
import { DAY_MS } from "../../core/time.ts";
import { type Advance, advance, advanced, quotaLimits, startTime } from "../support/core-arbitraries.ts";

interface ModelHold {
  readonly id: string;
  readonly bucket: Bucket;
  readonly day: number;
  readonly expiresAt: number;
  status: "open" | "committed" | "released";
}
interface Model {
  readonly limits: QuotaLimits;
  now: number;
  granted: number;
  readonly holds: ModelHold[];
}
interface Real {
  state: QuotaState;
  now: number;
}

const today = (m: Model) => Math.floor(m.now / DAY_MS);
const live = (m: Model, h: ModelHold) => h.status === "open" && h.expiresAt > m.now;
/** A hold "uses" its query while live or once committed. */
const using = (m: Model, h: ModelHold) => h.status === "committed" || live(m, h);
const count = (m: Model, keep: (h: ModelHold) => boolean) => m.holds.filter(keep).length;

const expected = (m: Model) => {
  const freeLeft = Math.max(
    0,
    m.limits.freePerDay - count(m, (h) => h.bucket === "free" && h.day === today(m) && using(m, h)),
  );
  const credits = m.granted - count(m, (h) => h.bucket === "paid" && h.status === "committed");
  const paidFree = credits - count(m, (h) => h.bucket === "paid" && live(m, h));
  const capLeft =
    m.limits.paidDailyCap - count(m, (h) => h.bucket === "paid" && h.day === today(m) && using(m, h));
  const paidToday = Math.max(0, Math.min(paidFree, capLeft));
  return { freeLeft, credits, paidFree, paidToday };
};

/** After every command: the real view equals the model's and the invariants hold. */
const agree = (m: Model, r: Real) => {
  const e = expected(m);
  expect(view(r.state, r.now, m.limits)).toEqual({
    remaining: e.freeLeft + e.paidToday,
    resetAt: (today(m) + 1) * DAY_MS,
    requiresPayment: e.freeLeft === 0 && e.paidFree === 0,
    free: e.freeLeft,
    paid: e.paidToday,
  });
  const state = normalize(r.state, r.now);
  expect(state.paidCredits).toBe(e.credits);
  expect(state.paidCredits).toBeGreaterThanOrEqual(0);
  expect(state.freeUsed).toBeLessThanOrEqual(m.limits.freePerDay);
  expect(state.paidSpentToday).toBeLessThanOrEqual(m.limits.paidDailyCap);
  expect(state.holds.map((h) => h.id).sort()).toEqual(
    m.holds
      .filter((h) => live(m, h))
      .map((h) => h.id)
      .sort(),
  );
};

const pickHold = (m: Model, pick: number): ModelHold | undefined =>
  m.holds[pick % Math.max(1, m.holds.length)];

const reserveCmd = (): fc.Command<Model, Real> => ({
  check: () => true,
  run: (m, r) => {
    const id = `h${m.holds.length}`;
    const e = expected(m);
    const bucket: Bucket | undefined = e.freeLeft > 0 ? "free" : e.paidToday > 0 ? "paid" : undefined;
    const result = reserve(r.state, r.now, id, m.limits);
    if (bucket === undefined) {
      if (Result.isSuccess(result))
        throw new Error(`reserve should fail, got a ${result.success[1].bucket} hold`);
      expect(result.failure._tag).toBe(e.paidFree > 0 ? "PaidDailyCapReached" : "QuotaExhausted");
      expect(result.failure.resetAt).toBe((today(m) + 1) * DAY_MS);
    } else {
      if (Result.isFailure(result))
        throw new Error(`reserve should give a ${bucket} hold, got ${result.failure._tag}`);
      const hold = { id, bucket, day: today(m), expiresAt: m.now + m.limits.holdTtlMs };
      expect(result.success[1]).toEqual(hold);
      m.holds.push({ ...hold, status: "open" });
      r.state = result.success[0];
    }
    agree(m, r);
  },
  toString: () => "reserve",
});

const settleCmd = (kind: "commit" | "release", pick: number): fc.Command<Model, Real> => ({
  check: (m) => m.holds.length > 0,
  run: (m, r) => {
    const hold = pickHold(m, pick);
    if (hold === undefined) throw new Error("no hold to settle");
    r.state = (kind === "commit" ? commit : release)(r.state, r.now, hold.id);
    if (live(m, hold)) hold.status = kind === "commit" ? "committed" : "released";
    agree(m, r);
  },
  toString: () => `${kind}(#${pick})`,
});

const grantCmd = (queries: number): fc.Command<Model, Real> => ({
  check: () => true,
  run: (m, r) => {
    r.state = grant(r.state, r.now, queries);
    m.granted += queries;
    agree(m, r);
  },
  toString: () => `grant(${queries})`,
});

const advanceCmd = (step: Advance): fc.Command<Model, Real> => ({
  check: () => true,
  run: (m, r) => {
    m.now = advanced(m.now, step, m.limits);
    r.now = m.now;
    agree(m, r);
  },
  toString: () => `advance(${JSON.stringify(step)})`,
});

const commands = fc.commands(
  [
    fc.constant(reserveCmd()),
    fc.nat().map((pick) => settleCmd("commit", pick)),
    fc.nat().map((pick) => settleCmd("release", pick)),
    fc.integer({ min: 1, max: 6 }).map(grantCmd),
    advance.map(advanceCmd),
  ],
  { maxCommands: 120 },
);

describe("quota model", () => {
  test("the pure quota machine agrees with the ledger model on every step", () => {
    fc.assert(
      fc.property(quotaLimits, startTime, commands, (limits, start, cmds) => {
        fc.modelRun(
          () => ({
            model: { limits, now: start, granted: 0, holds: [] },
            real: { state: emptyQuota(start), now: start },
          }),
          cmds,
        );
      }),
      { numRuns: 500 },
    );
  });

  test("with the production limits (3 free, cap 1000) the model agrees too", () => {
    const limits: QuotaLimits = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 60_000 };
    fc.assert(
      fc.property(startTime, commands, (start, cmds) => {
        fc.modelRun(
          () => ({
            model: { limits, now: start, granted: 0, holds: [] },
            real: { state: emptyQuota(start), now: start },
          }),
          cmds,
        );
      }),
      { numRuns: 200 },
    );
  });
});
