import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { SIGNATURE_MEMORY_MS } from "../../core/payments/signature-ledger.ts";
import {
  CLAIM_RETENTION_MS,
  type ClaimInput,
  checkUsable,
  claimPayment,
  finishPayment,
  forgetAt,
  type IssuedPayment,
  LATE_TRANSFER_GRACE_MS,
  LEASE_MS,
  type PaymentRecord,
  SETTLE_GRACE_MS,
  standingOf,
} from "../../core/payments/x402-ledger.ts";
import { issuedPayment } from "../support/x402-samples.ts";

const T0 = Date.UTC(2030, 0, 15, 12);
const issued: IssuedPayment = issuedPayment(T0 + 300_000);
const open: PaymentRecord = { issued, state: { kind: "open" } };
const binding = { resource: "/premium-data", method: "GET" };
const claim = (overrides: Partial<ClaimInput> = {}): ClaimInput => ({
  binding,
  signature: "tx-1",
  paidAt: T0 + 10_000,
  lease: "lease-1",
  served: false,
  identity: "x402:GET /premium-data",
  queries: 0,
  ...overrides,
});

const reasonOf = (result: Result.Result<unknown, { readonly reason: string }>) =>
  Result.isFailure(result) ? result.failure.reason : "ok";

const claimed = (record: PaymentRecord | undefined, input = claim(), now = T0 + 20_000) => {
  const result = claimPayment(record, undefined, input, now);
  if (Result.isFailure(result)) throw new Error(result.failure.reason);
  return result.success;
};

describe("x402 payment ledger: claim", () => {
  test("an open request is claimed once: a lease, the signature marked used", () => {
    const result = claimed(open);
    expect(result.retry).toBe(false);
    expect(result.record.state).toEqual({
      kind: "claimed",
      signature: "tx-1",
      lease: "lease-1",
      leaseUntil: T0 + 20_000 + LEASE_MS,
    });
    expect(result.used).toEqual({ usedAt: T0 + 20_000, identity: "x402:GET /premium-data", queries: 0 });
  });

  test("a grant is served at once", () => {
    const result = claimed(open, claim({ served: true, identity: "1.2.3.4", queries: 10 }));
    expect(result.record.state).toEqual({ kind: "served", signature: "tx-1" });
    expect(result.used?.queries).toBe(10);
  });

  test("refusals, in core's order", () => {
    const now = T0 + 20_000;
    expect(reasonOf(claimPayment(undefined, undefined, claim(), now))).toBe("payment-unknown");
    expect(
      reasonOf(claimPayment(open, undefined, claim({ binding: { ...binding, method: "POST" } }), now)),
    ).toBe("payment-other-resource");
    expect(
      reasonOf(
        claimPayment(open, undefined, claim({ binding: { ...binding, resource: "/expensive-data" } }), now),
      ),
    ).toBe("payment-other-resource");
    // Landed within a blockhash's lifetime after expires_at: paid in time (the client began before it).
    expect(
      reasonOf(
        claimPayment(open, undefined, claim({ paidAt: issued.expiresAt + LATE_TRANSFER_GRACE_MS }), now),
      ),
    ).toBe("ok");
    // Landed later: too late, even though the header arrives within the grace.
    expect(
      reasonOf(
        claimPayment(open, undefined, claim({ paidAt: issued.expiresAt + LATE_TRANSFER_GRACE_MS + 1 }), now),
      ),
    ).toBe("payment-expired");
    // Paid in time, presented late but within the grace: accepted.
    expect(
      reasonOf(claimPayment(open, undefined, claim({ paidAt: issued.expiresAt }), issued.expiresAt + 60_000)),
    ).toBe("ok");
    expect(reasonOf(claimPayment(open, undefined, claim(), issued.expiresAt + SETTLE_GRACE_MS))).toBe(
      "payment-expired",
    );
    const usedElsewhere = { usedAt: now - 1000, identity: "someone", queries: 50 };
    expect(reasonOf(claimPayment(open, usedElsewhere, claim(), now))).toBe("signature-already-used");
    // A signature record past its memory no longer counts.
    const forgotten = { usedAt: now - SIGNATURE_MEMORY_MS, identity: "someone", queries: 50 };
    expect(reasonOf(claimPayment(open, forgotten, claim(), now))).toBe("ok");
  });

  test("a claimed or served request is never claimed again while the lease runs", () => {
    const first = claimed(open).record;
    const now = T0 + 30_000;
    expect(reasonOf(claimPayment(first, undefined, claim(), now))).toBe("payment-already-used");
    expect(reasonOf(claimPayment(first, undefined, claim({ signature: "tx-2" }), now))).toBe(
      "payment-already-used",
    );
    const served = finishPayment(first, "lease-1", true);
    expect(served.state).toEqual({ kind: "served", signature: "tx-1" });
    expect(reasonOf(claimPayment(served, undefined, claim(), now + LEASE_MS * 10))).toBe(
      "payment-already-used",
    );
  });
});

describe("x402 payment ledger: a failed handler never loses the payment", () => {
  test("unserved: the same transaction claims again (a retry), another one cannot", () => {
    const unserved = finishPayment(claimed(open).record, "lease-1", false);
    expect(unserved.state).toEqual({ kind: "unserved", signature: "tx-1" });
    const now = T0 + 40_000;
    expect(reasonOf(claimPayment(unserved, undefined, claim({ signature: "tx-2" }), now))).toBe(
      "payment-already-used",
    );
    const again = claimPayment(
      unserved,
      { usedAt: T0, identity: "x", queries: 0 },
      claim({ lease: "lease-2" }),
      now,
    );
    expect(Result.isSuccess(again) && again.success.retry).toBe(true);
    // A retry writes no second ledger entry and is not bound by expires_at (the payment was made in time).
    expect(Result.isSuccess(again) && again.success.used).toBeUndefined();
    const late = claimPayment(
      unserved,
      undefined,
      claim({ paidAt: issued.expiresAt + 1 }),
      issued.expiresAt + 1,
    );
    expect(reasonOf(late)).toBe("ok");
  });

  test("a retry that serves credits its grant: the reservation before it credited nothing", () => {
    const reservation = claimed(open);
    expect(reservation.credit).toBe(0);
    const unserved = finishPayment(reservation.record, "lease-1", false);
    const granted = { lease: "lease-2", served: true, identity: "1.2.3.4", queries: 10 };
    const retried = claimed(unserved, claim(granted), T0 + 40_000);
    expect(retried).toMatchObject({ retry: true, used: undefined, credit: 10 });
    expect(retried.record.state).toEqual({ kind: "served", signature: "tx-1" });
    // Served is final: the same transaction presented again is refused, so it credits once.
    expect(reasonOf(claimPayment(retried.record, undefined, claim(granted), T0 + 50_000))).toBe(
      "payment-already-used",
    );
    const lapsed = claimed(reservation.record, claim(granted), T0 + 20_000 + LEASE_MS);
    expect(lapsed).toMatchObject({ retry: true, credit: 10 });
  });

  test("a lapsed lease (an instance died mid-handler) may be claimed again with the same transaction", () => {
    const first = claimed(open).record;
    const lapse = T0 + 20_000 + LEASE_MS;
    expect(reasonOf(claimPayment(first, undefined, claim({ lease: "lease-2" }), lapse - 1))).toBe(
      "payment-already-used",
    );
    expect(reasonOf(claimPayment(first, undefined, claim({ lease: "lease-2" }), lapse))).toBe("ok");
  });

  test("finish with another lease changes nothing", () => {
    const first = claimed(open).record;
    expect(finishPayment(first, "lease-other", true)).toBe(first);
    expect(finishPayment(open, "lease-1", true)).toBe(open);
  });
});

describe("x402 payment ledger: retention and pre-checks", () => {
  test("an open request is kept until the grace after expiry, a claimed one a day", () => {
    expect(forgetAt(open, T0)).toBe(issued.expiresAt + SETTLE_GRACE_MS);
    expect(forgetAt(claimed(open).record, T0 + 5)).toBe(T0 + 5 + CLAIM_RETENTION_MS);
  });

  test("checkUsable agrees with claim before any chain data", () => {
    const now = T0 + 1000;
    expect(reasonOf(checkUsable(undefined, binding, "tx-1", now))).toBe("payment-unknown");
    expect(Result.getOrUndefined(checkUsable(open, binding, "tx-1", now))).toEqual({ issued, retry: false });
    const unserved = finishPayment(claimed(open).record, "lease-1", false);
    expect(Result.getOrUndefined(checkUsable(unserved, binding, "tx-1", now))?.retry).toBe(true);
    expect(reasonOf(checkUsable(unserved, binding, "tx-9", now))).toBe("payment-already-used");
  });
});

describe("x402 payment ledger: where a transaction stands", () => {
  const issued = issuedPayment(1_750_000_000_000 + 60_000);
  const at = (state: PaymentRecord["state"]): PaymentRecord => ({ issued, state });
  test("pending while it holds the request (live or lapsed lease) or got it back after a failure", () => {
    expect(
      standingOf(at({ kind: "claimed", signature: "s", lease: "l", leaseUntil: 1_750_000_000_000 + 1 }), "s"),
    ).toBe("pending");
    expect(standingOf(at({ kind: "claimed", signature: "s", lease: "l", leaseUntil: 0 }), "s")).toBe(
      "pending",
    );
    expect(standingOf(at({ kind: "unserved", signature: "s" }), "s")).toBe("pending");
  });
  test("served once credited; other when open, unknown or another transaction's", () => {
    expect(standingOf(at({ kind: "served", signature: "s" }), "s")).toBe("served");
    expect(standingOf(at({ kind: "open" }), "s")).toBe("other");
    expect(standingOf(undefined, "s")).toBe("other");
    expect(standingOf(at({ kind: "served", signature: "t" }), "s")).toBe("other");
    expect(standingOf(at({ kind: "unserved", signature: "t" }), "s")).toBe("other");
  });
});
