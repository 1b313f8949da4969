import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import {
  blankViews,
  commit,
  emptyQuota,
  grant,
  type Hold,
  normalize,
  type QuotaLimits,
  type QuotaState,
  release,
  reserve,
  view,
} from "../../core/quota.ts";
import { DAY_MS } from "../../core/time.ts";

const limits: QuotaLimits = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 60_000 };
const MIDNIGHT = Date.UTC(2025, 5, 2);
const T0 = MIDNIGHT - 12 * 3_600_000;

const held = (state: QuotaState, now: number, id: string, l = limits): readonly [QuotaState, Hold] => {
  const result = reserve(state, now, id, l);
  if (Result.isFailure(result)) throw new Error(`reserve failed: ${result.failure._tag}`);
  return result.success;
};
const refused = (state: QuotaState, now: number, l = limits) => {
  const result = reserve(state, now, "refused", l);
  if (Result.isSuccess(result)) throw new Error(`reserve succeeded with ${result.success[1].bucket}`);
  return result.failure;
};
/** Reserve then commit one query. */
const spend = (state: QuotaState, now: number, id: string, l = limits) => {
  const [next, hold] = held(state, now, id, l);
  return [commit(next, now, hold.id), hold.bucket] as const;
};

describe("quota: spending order and limits", () => {
  test("a new identity sees the free quota", () => {
    expect(view(emptyQuota(T0), T0, limits)).toEqual({
      remaining: 3,
      resetAt: MIDNIGHT,
      requiresPayment: false,
      free: 3,
      paid: 0,
    });
  });

  test("free first, then paid", () => {
    let state = grant(emptyQuota(T0), T0, 2);
    expect(view(state, T0, limits).remaining).toBe(5);
    const buckets: string[] = [];
    for (let i = 0; i < 5; i++) {
      const [next, bucket] = spend(state, T0, `h${i}`);
      state = next;
      buckets.push(bucket);
    }
    expect(buckets).toEqual(["free", "free", "free", "paid", "paid"]);
    expect(state).toMatchObject({ freeUsed: 3, paidCredits: 0, paidSpentToday: 2, holds: [] });
    expect(view(state, T0, limits)).toEqual({
      remaining: 0,
      resetAt: MIDNIGHT,
      requiresPayment: true,
      free: 0,
      paid: 0,
    });
  });

  test("nothing left: QuotaExhausted with the next UTC midnight", () => {
    let state = emptyQuota(T0);
    for (let i = 0; i < 3; i++) state = spend(state, T0, `h${i}`)[0];
    const error = refused(state, T0);
    expect(error._tag).toBe("QuotaExhausted");
    expect(error.resetAt).toBe(MIDNIGHT);
  });

  test("at most 1000 paid queries a day: PaidDailyCapReached, credits kept", () => {
    const l = { ...limits, freePerDay: 0 };
    let state = grant(emptyQuota(T0), T0, 1500);
    for (let i = 0; i < 1000; i++) state = spend(state, T0, `p${i}`, l)[0];
    expect(state.paidCredits).toBe(500);
    expect(state.paidSpentToday).toBe(1000);
    const error = refused(state, T0, l);
    expect(error._tag).toBe("PaidDailyCapReached");
    expect(error.resetAt).toBe(MIDNIGHT);
    expect(view(state, T0, l)).toEqual({
      remaining: 0,
      resetAt: MIDNIGHT,
      requiresPayment: false,
      free: 0,
      paid: 0,
    });
    const [, bucket] = spend(state, MIDNIGHT, "next-day", l);
    expect(bucket).toBe("paid");
    expect(view(state, MIDNIGHT, l)).toMatchObject({ remaining: 500, free: 0, paid: 500 });
  });

  test("open paid holds count against the daily cap", () => {
    const l = { ...limits, freePerDay: 0, paidDailyCap: 2 };
    const [s1] = held(grant(emptyQuota(T0), T0, 10), T0, "a", l);
    const [s2] = held(s1, T0, "b", l);
    expect(refused(s2, T0, l)._tag).toBe("PaidDailyCapReached");
  });
});

describe("quota: day boundary", () => {
  test("free queries reset at UTC midnight, paid credits stay", () => {
    let state = grant(emptyQuota(T0), T0, 7);
    for (let i = 0; i < 5; i++) state = spend(state, T0, `h${i}`)[0];
    expect(view(state, MIDNIGHT - 1, limits).remaining).toBe(5);
    const next = normalize(state, MIDNIGHT);
    expect(next).toEqual({ day: state.day + 1, freeUsed: 0, paidSpentToday: 0, paidCredits: 5, holds: [] });
    expect(view(state, MIDNIGHT, limits)).toEqual({
      remaining: 8,
      resetAt: MIDNIGHT + DAY_MS,
      requiresPayment: false,
      free: 3,
      paid: 5,
    });
    expect(view(state, MIDNIGHT + 10 * DAY_MS, limits).remaining).toBe(8);
  });

  test("normalize is idempotent", () => {
    const state = grant(held(emptyQuota(T0), T0, "a")[0], T0, 4);
    for (const now of [T0, T0 + 60_000, MIDNIGHT, MIDNIGHT + 3 * DAY_MS])
      expect(normalize(normalize(state, now), now)).toEqual(normalize(state, now));
  });

  test("a free hold taken before midnight and committed after does not eat the new day's quota", () => {
    const before = MIDNIGHT - 30_000;
    const [state, hold] = held(emptyQuota(before), before, "late");
    const after = commit(state, MIDNIGHT + 10_000, hold.id);
    expect(after).toMatchObject({ freeUsed: 0, holds: [] });
    expect(view(after, MIDNIGHT + 10_000, limits).remaining).toBe(3);
  });

  test("a paid hold committed after midnight spends the credit but not the new day's cap", () => {
    const before = MIDNIGHT - 30_000;
    let state = grant(emptyQuota(before), before, 5);
    for (let i = 0; i < 3; i++) state = spend(state, before, `f${i}`)[0];
    const [withHold, hold] = held(state, before, "paid");
    expect(hold.bucket).toBe("paid");
    const after = commit(withHold, MIDNIGHT + 10_000, hold.id);
    expect(after).toMatchObject({ paidCredits: 4, paidSpentToday: 0, freeUsed: 0, holds: [] });
  });
});

describe("quota: holds", () => {
  test("a hold blocks its query until it lapses after holdTtlMs", () => {
    let state = emptyQuota(T0);
    for (let i = 0; i < 3; i++) state = held(state, T0, `h${i}`)[0];
    expect(view(state, T0, limits).remaining).toBe(0);
    expect(refused(state, T0 + limits.holdTtlMs - 1)._tag).toBe("QuotaExhausted");
    expect(view(state, T0 + limits.holdTtlMs, limits).remaining).toBe(3);
    const [, hold] = held(state, T0 + limits.holdTtlMs, "again");
    expect(hold.bucket).toBe("free");
  });

  test("a lapsed hold cannot be committed", () => {
    const [state, hold] = held(emptyQuota(T0), T0, "a");
    expect(commit(state, T0 + limits.holdTtlMs, hold.id)).toMatchObject({ freeUsed: 0, holds: [] });
  });

  test("commit twice charges once", () => {
    const [state, hold] = held(grant(emptyQuota(T0), T0, 1), T0, "a");
    const once = commit(state, T0, hold.id);
    expect(commit(once, T0, hold.id)).toEqual(once);
    expect(once.freeUsed).toBe(1);
    expect(view(once, T0, limits).remaining).toBe(3);
  });

  test("release gives the query back; a second release or commit changes nothing", () => {
    const start = grant(emptyQuota(T0), T0, 1);
    const [state, hold] = held(start, T0, "a");
    expect(view(state, T0, limits).remaining).toBe(3);
    const released = release(state, T0, hold.id);
    expect(released).toEqual(start);
    expect(release(released, T0, hold.id)).toEqual(released);
    expect(commit(released, T0, hold.id)).toEqual(released);
  });

  test("holds are tracked by id: settling one leaves the others", () => {
    const [s1, a] = held(emptyQuota(T0), T0, "a");
    const [s2, b] = held(s1, T0, "b");
    const s3 = commit(s2, T0, a.id);
    expect(s3.holds.map((hold) => hold.id)).toEqual([b.id]);
    expect(release(s3, T0, "unknown")).toEqual(s3);
  });

  test("a paid hold cannot be spent twice: credits held are not available", () => {
    const l = { ...limits, freePerDay: 0 };
    const [state] = held(grant(emptyQuota(T0), T0, 1), T0, "a", l);
    expect(view(state, T0, l)).toEqual({
      remaining: 0,
      resetAt: MIDNIGHT,
      requiresPayment: true,
      free: 0,
      paid: 0,
    });
    expect(refused(state, T0, l)._tag).toBe("QuotaExhausted");
  });
});

describe("blankViews", () => {
  test("is the view of an empty state at every moment, across midnights", () => {
    const blank = blankViews(limits);
    for (const now of [T0, T0 + 1, MIDNIGHT - 1, MIDNIGHT, MIDNIGHT + 1, MIDNIGHT + DAY_MS + 5, T0])
      expect(blank(now)).toEqual(view(emptyQuota(now), now, limits));
  });

  test("follows the limits it was made with", () => {
    expect(blankViews({ ...limits, freePerDay: 0 })(T0)).toMatchObject({
      remaining: 0,
      requiresPayment: true,
    });
  });
});
