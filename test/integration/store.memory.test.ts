/**
 * What only the memory store has: bounded memory (the sweep forgets exactly what the rules
 * no longer need), and the uniform random names it draws.
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { randomBase58 } from "../../adapters/shared/random-ids.ts";
import { makeMemoryState } from "../../adapters/store-memory/memory-state.ts";
import { SIGNATURE_MEMORY_MS } from "../../core/payments/signature-ledger.ts";
import { SETTLE_GRACE_MS } from "../../core/payments/x402-ledger.ts";
import { DAY_MS } from "../../core/time.ts";
import { issuedPayment } from "../support/x402-samples.ts";

const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
const T0 = Date.UTC(2030, 0, 15, 12);
const MIDNIGHT = Date.UTC(2030, 0, 16);

const counter = () => {
  let n = 0;
  return () => `id-${n++}`;
};
const fresh = () => makeMemoryState(LIMITS, { holdId: counter() });
const reserveOk = (state: ReturnType<typeof fresh>, id: string, now: number) => {
  const result = state.reserve(id, now);
  if (Result.isFailure(result)) throw new Error(`reserve failed: ${result.failure._tag}`);
  return result.success.hold.id;
};

describe("memory store bounds", () => {
  test("a view of a fresh identity stores nothing", () => {
    const state = fresh();
    for (let i = 0; i < 100; i++) state.view(`v-${i}`, T0);
    expect(state.sizes().quotas).toBe(0);
  });

  test("the sweep drops past days' counters but keeps today's, paid credits and open holds", () => {
    const state = fresh();
    state.commit("spent-free", reserveOk(state, "spent-free", T0), T0);
    state.claim("sig", "paid", 5, T0);
    reserveOk(state, "held", MIDNIGHT - 10_000);
    state.sweep(T0);
    expect(state.sizes().quotas).toBe(3);
    state.sweep(MIDNIGHT);
    // "held" still has a hold until MIDNIGHT + 20 s; "spent-free" is a past day's counter.
    expect(state.sizes().quotas).toBe(2);
    state.sweep(MIDNIGHT + 20_000);
    expect(state.sizes().quotas).toBe(1);
    expect(state.view("paid", MIDNIGHT + 365 * DAY_MS)).toMatchObject({ remaining: 8 });
  });

  test("a release leaves nothing behind; a spent-out identity is swept the next day", () => {
    const state = fresh();
    state.release("a", reserveOk(state, "a", T0), T0);
    expect(state.sizes().quotas).toBe(0);
    state.claim("sig", "b", 1, MIDNIGHT + 1);
    for (let i = 0; i < 4; i++) state.commit("b", reserveOk(state, "b", MIDNIGHT + 1), MIDNIGHT + 1);
    state.sweep(MIDNIGHT + DAY_MS);
    expect(state.sizes().quotas).toBe(0);
  });

  test("signatures are forgotten exactly when their 30-day memory ends", () => {
    const state = fresh();
    state.claim("sig", "a", 1, T0);
    state.sweep(T0 + SIGNATURE_MEMORY_MS - 1);
    expect(state.sizes().signatures).toBe(1);
    expect(Result.isFailure(state.claim("sig", "b", 1, T0 + SIGNATURE_MEMORY_MS - 1))).toBe(true);
    state.sweep(T0 + SIGNATURE_MEMORY_MS);
    expect(state.sizes().signatures).toBe(0);
  });

  test("the sweep without an argument uses the newest time callers passed", () => {
    const state = fresh();
    state.claim("sig", "a", 1, T0);
    state.view("b", T0 + SIGNATURE_MEMORY_MS);
    state.sweep();
    expect(state.sizes().signatures).toBe(0);
  });

  test("x402 payment requests are swept after their retention, by the callers' clock alone", () => {
    const state = fresh();
    for (let i = 0; i < 50; i++)
      state.issuePayment({ ...issuedPayment(T0 + 300_000), paymentId: `pay_open_${i}` }, T0);
    const claim = {
      binding: { resource: "/premium-data", method: "GET" },
      signature: "sig-1",
      paidAt: T0,
      lease: "lease",
      served: false,
      identity: "x402",
      queries: 0,
    };
    state.issuePayment(issuedPayment(T0 + 300_000), T0);
    expect(Result.isSuccess(state.claimPayment(issuedPayment(0).paymentId, claim, T0))).toBe(true);
    expect(state.sizes().payments).toBe(51);
    // The sweeper's default time is the newest one callers passed (here only issues and claims).
    state.sweep();
    expect(state.sizes().payments).toBe(51);
    state.issuePayment(
      { ...issuedPayment(T0 + 300_000 + DAY_MS), paymentId: "pay_late" },
      T0 + 300_000 + SETTLE_GRACE_MS,
    );
    state.sweep();
    // The open ones are past expiry + grace; the claimed one is kept for a day, the new one too.
    expect(state.sizes().payments).toBe(2);
    // A day after the claim it goes; the late one lives until its own expiry + grace.
    state.sweep(T0 + DAY_MS);
    expect(state.sizes().payments).toBe(1);
    state.sweep(T0 + 300_000 + DAY_MS + SETTLE_GRACE_MS);
    expect(state.sizes().payments).toBe(0);
  });

  test("randomBase58 draws uniform base58 characters", () => {
    const refs = Array.from({ length: 2000 }, () => randomBase58(16));
    expect(new Set(refs).size).toBe(2000);
    for (const ref of refs) expect(ref).toMatch(/^[1-9A-HJ-NP-Za-km-z]{16}$/);
    // Every one of the 58 characters turns up among 32 000 draws.
    expect(new Set(refs.join("")).size).toBe(58);
  });
});
