/**
 * The pure rules behind "a late transfer is served or credited, never kept": the ledger's claim
 * that accepts late, a request's lookup counter past its grace, which refused transfers carry no
 * memo of ours, and the bounded list of unattributed payments.
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { hmacSeal } from "../../adapters/shared/hmac-seal.ts";
import { isLateTransfer, lookupCounterUntil } from "../../core/payments/late-transfer.ts";
import { isSealedPaymentId, sealPayment } from "../../core/payments/sealed-request.ts";
import {
  carriesNoMemoOfOurs,
  recordEntry,
  type UnattributedPayment,
} from "../../core/payments/unattributed.ts";
import {
  type ClaimInput,
  checkUsable,
  claimPayment,
  LATE_TRANSFER_GRACE_MS,
  type PaymentRecord,
  SETTLE_GRACE_MS,
} from "../../core/payments/x402-ledger.ts";
import { issuedPayment } from "../support/x402-samples.ts";

const T0 = Date.UTC(2030, 0, 15, 12);
const issued = issuedPayment(T0 + 300_000);
const open: PaymentRecord = { issued, state: { kind: "open" } };
const binding = { resource: "/premium-data", method: "GET" };
const claim = (overrides: Partial<ClaimInput> = {}): ClaimInput => ({
  binding,
  signature: "tx-late",
  paidAt: issued.expiresAt + LATE_TRANSFER_GRACE_MS + 1,
  lease: "lease-1",
  served: false,
  identity: "x402:GET /premium-data",
  queries: 0,
  ...overrides,
});
const reasonOf = (result: Result.Result<unknown, { readonly reason: string }>) =>
  Result.isFailure(result) ? result.failure.reason : "ok";

describe("the ledger's late claims", () => {
  const pastGrace = issued.expiresAt + SETTLE_GRACE_MS + 60_000;

  test("without acceptsLate both graces refuse; with it the same claim succeeds, once", () => {
    expect(reasonOf(claimPayment(open, undefined, claim(), T0))).toBe("payment-expired");
    expect(reasonOf(checkUsable(open, binding, "tx-late", pastGrace))).toBe("payment-expired");
    expect(reasonOf(claimPayment(open, undefined, claim(), pastGrace))).toBe("payment-expired");
    const accepted = claimPayment(open, undefined, claim({ acceptsLate: true }), pastGrace);
    expect(reasonOf(accepted)).toBe("ok");
    if (Result.isFailure(accepted)) return;
    // The request is used: neither another transaction nor, once served, the same one claims it.
    expect(
      reasonOf(
        claimPayment(
          accepted.success.record,
          undefined,
          claim({ acceptsLate: true, signature: "tx-2" }),
          pastGrace,
        ),
      ),
    ).toBe("payment-already-used");
  });

  test("lateness and the lookup counter's life", () => {
    expect(isLateTransfer(issued, issued.expiresAt + LATE_TRANSFER_GRACE_MS)).toBe(false);
    expect(isLateTransfer(issued, issued.expiresAt + LATE_TRANSFER_GRACE_MS + 1)).toBe(true);
    expect(lookupCounterUntil(issued, T0)).toBe(issued.expiresAt + SETTLE_GRACE_MS);
    expect(lookupCounterUntil(issued, pastGrace)).toBe(pastGrace + SETTLE_GRACE_MS);
  });
});

describe("memos of ours", () => {
  const seal = hmacSeal("22".repeat(32));
  const ours = sealPayment(
    seal.mac,
    { binding, units: 100_000n, payTo: "pay", mint: "mint", network: "chain-devnet", description: "" },
    "Random123456789A",
    T0,
  ).paymentId;
  const isOurs = (id: string) => isSealedPaymentId(seal.mac, id);

  test("a sealed id is ours whatever its route; a forged or altered one is not", () => {
    expect(isOurs(ours)).toBe(true);
    expect(isOurs(`${ours.slice(0, -1)}${ours.endsWith("0") ? "1" : "0"}`)).toBe(false);
    expect(isOurs("pay_NeverIssued0000000000")).toBe(false);
    expect(isSealedPaymentId(hmacSeal("33".repeat(32)).mac, ours)).toBe(false);
  });

  test("only memo refusals with no memo of ours are unattributed", () => {
    expect(carriesNoMemoOfOurs("memo-required", [], isOurs)).toBe(true);
    expect(carriesNoMemoOfOurs("memo-reserved", ["x402:pay_NotOurs"], isOurs)).toBe(true);
    expect(carriesNoMemoOfOurs("memo-reserved", ["x402:pay_NotOurs", `x402:${ours}`], isOurs)).toBe(false);
    expect(carriesNoMemoOfOurs("memo-mismatch", ["docschat:other"], isOurs)).toBe(false);
    expect(carriesNoMemoOfOurs("amount-insufficient", [], isOurs)).toBe(false);
  });
});

describe("the unattributed list", () => {
  const bounds = { retentionMs: 1_000, maxEntries: 2 };
  const entry = (signature: string, at: number): UnattributedPayment => ({
    signature,
    payer: "p",
    units: 1n,
    at,
    reason: "memo-not-ours",
    paymentId: "",
  });

  test("one per signature, in order, the cap and the retention applied at the record", () => {
    let list = recordEntry([], entry("b", 10), 10, bounds);
    list = recordEntry(list, entry("a", 10), 10, bounds);
    expect(recordEntry(list, entry("a", 20), 20, bounds)).toBe(list);
    expect(list.map((e) => e.signature)).toEqual(["a", "b"]);
    list = recordEntry(list, entry("c", 5), 20, bounds);
    expect(list.map((e) => e.signature)).toEqual(["a", "b"]);
    list = recordEntry(list, entry("d", 900), 1_015, bounds);
    expect(list.map((e) => e.signature)).toEqual(["d"]);
  });
});
