/**
 * The payment_id ledger under any sequence of claims, handler outcomes and time: one
 * transaction pays at most one payment request, a request is paid by at most one transaction,
 * and each request is served at most once, however claims, failures and lapsed leases interleave.
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import fc from "fast-check";
import type { UsedSignature } from "../../core/payments/signature-ledger.ts";
import {
  claimPayment,
  finishPayment,
  type IssuedPayment,
  LEASE_MS,
  type PaymentRecord,
} from "../../core/payments/x402-ledger.ts";

const T0 = Date.UTC(2030, 0, 1);
const PAYMENTS = 3;
const TRANSACTIONS = 4;

const issuedAt = (index: number): IssuedPayment => ({
  paymentId: `pay_${index}`,
  nonce: `nonce_${index}`,
  resource: `/r${index % 2}`,
  method: "GET",
  units: 1000n,
  payTo: "wallet",
  mint: "mint",
  network: "chain-devnet",
  expiresAt: T0 + 300_000,
  description: "",
});

type Op =
  | {
      readonly kind: "claim";
      readonly payment: number;
      readonly tx: number;
      readonly resource: number;
      readonly grant: boolean;
    }
  | { readonly kind: "finish"; readonly payment: number; readonly ok: boolean; readonly staleLease: boolean }
  | { readonly kind: "advance"; readonly ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("claim" as const),
    payment: fc.nat(PAYMENTS - 1),
    tx: fc.nat(TRANSACTIONS - 1),
    resource: fc.nat(1),
    grant: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("finish" as const),
    payment: fc.nat(PAYMENTS - 1),
    ok: fc.boolean(),
    staleLease: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("advance" as const), ms: fc.constantFrom(1_000, LEASE_MS, 400_000) }),
);

describe("x402 ledger properties", () => {
  test("one transaction per payment, one payment per transaction, served at most once", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const records = new Map<number, PaymentRecord>(
          Array.from({ length: PAYMENTS }, (_, i) => [i, { issued: issuedAt(i), state: { kind: "open" } }]),
        );
        const ledger = new Map<string, UsedSignature>();
        const leases = new Map<number, string>();
        const paidBy = new Map<number, string>();
        const paysFor = new Map<string, number>();
        const servedCount = new Map<number, number>();
        let now = T0;
        let counter = 0;
        const served = (payment: number) => servedCount.set(payment, (servedCount.get(payment) ?? 0) + 1);
        for (const step of ops) {
          if (step.kind === "advance") {
            now += step.ms;
            continue;
          }
          const record = records.get(step.payment);
          if (record === undefined) throw new Error("no record");
          if (step.kind === "finish") {
            const lease = step.staleLease ? "stale" : (leases.get(step.payment) ?? "none");
            const next = finishPayment(record, lease, step.ok);
            if (next.state.kind === "served" && record.state.kind !== "served") served(step.payment);
            records.set(step.payment, next);
            continue;
          }
          const signature = `tx_${step.tx}`;
          const lease = `lease_${counter++}`;
          const result = claimPayment(
            record,
            ledger.get(signature),
            {
              binding: { resource: `/r${step.resource}`, method: "GET" },
              signature,
              paidAt: now,
              lease,
              served: step.grant,
              identity: "id",
              queries: step.grant ? 1 : 0,
            },
            now,
          );
          if (Result.isFailure(result)) continue;
          const { record: next, used, retry, credit } = result.success;
          expect(retry).toBe(used === undefined);
          // A claim credits exactly when it serves; served happens once, so credits do too.
          expect(credit).toBe(next.state.kind === "served" ? 1 : 0);
          if (used !== undefined) ledger.set(signature, used);
          // The invariants: a payment keeps its transaction, a transaction its payment.
          expect(paidBy.get(step.payment) ?? signature).toBe(signature);
          expect(paysFor.get(signature) ?? step.payment).toBe(step.payment);
          paidBy.set(step.payment, signature);
          paysFor.set(signature, step.payment);
          leases.set(step.payment, lease);
          if (next.state.kind === "served") served(step.payment);
          records.set(step.payment, next);
        }
        for (const count of servedCount.values()) expect(count).toBeLessThanOrEqual(1);
      }),
      { numRuns: 1000 },
    );
  });
});
