/** What the store tests share: limits with a short hold lease, and a fixed moment to run at. */
import type * as ManagedRuntime from "effect/ManagedRuntime";
import type { PendingSettlement } from "../../core/payments/pending-settlement.ts";
import type { PaymentStore } from "../../core/ports/payment-store.ts";
import type { QuotaStore } from "../../core/ports/quota-store.ts";

export const STORE_LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
/** Noon UTC, mid-month: far from a day or month boundary. */
export const T0 = Date.UTC(2030, 0, 15, 12);

/** A runtime holding both store ports. */
export type StoreRuntime = ManagedRuntime.ManagedRuntime<QuotaStore | PaymentStore, unknown>;

/** A pending settlement of a wallet's credit (10 questions on /api/chat); `fields` name the transaction. */
export const pendingSettlement = (
  fields: Pick<PendingSettlement, "signature" | "paymentId" | "lease" | "since">,
): PendingSettlement => ({
  kind: "credit",
  resource: "/api/chat",
  method: "POST",
  identity: "wallet:W",
  queries: 10,
  payer: "W",
  blockhash: "B",
  ...fields,
});
