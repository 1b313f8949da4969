/** What the store tests share: limits with a short hold lease, and a fixed moment to run at. */
import type * as ManagedRuntime from "effect/ManagedRuntime";
import type { PaymentStore } from "../../core/ports/payment-store.ts";
import type { QuotaStore } from "../../core/ports/quota-store.ts";

export const STORE_LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
/** Noon UTC, mid-month: far from a day or month boundary. */
export const T0 = Date.UTC(2030, 0, 15, 12);

/** A runtime holding both store ports. */
export type StoreRuntime = ManagedRuntime.ManagedRuntime<QuotaStore | PaymentStore, unknown>;
