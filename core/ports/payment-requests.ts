import { Context, type Effect } from "effect";
import type { PaymentRejected } from "../payment-rejected.ts";
import type { QuotaView } from "../quota.ts";
import type { Binding, IssuedPayment, PaymentRecord } from "../x402-ledger.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/** A claim of an issued payment with a verified transfer. */
export interface PaymentRequestClaim {
  readonly paymentId: string;
  readonly binding: Binding;
  /** The transaction signature that paid. */
  readonly signature: string;
  /** When the transfer happened (epoch ms). */
  readonly paidAt: number;
  /** Queries credited to `identity` in the same atomic step (/api/chat); the payment is then served. */
  readonly grant?: { readonly identity: string; readonly queries: number };
}

export interface PaymentRequestClaimed {
  /** Names this claim for `finish`. */
  readonly lease: string;
  readonly retry: boolean;
  /** The identity's quota after a grant. */
  readonly rateLimit: QuotaView | undefined;
}

/**
 * The payment requests we issued in 402 responses (core/x402-ledger.ts), shared by every
 * instance. `claim` is one atomic step: the payment_id consumed, the transaction signature
 * marked used (the ledger of POST /api/payment) and any grant credited, or none of them.
 */
export class PaymentRequests extends Context.Service<
  PaymentRequests,
  {
    /** Remembers a request until its expiry plus the settle grace. */
    readonly issue: (issued: IssuedPayment, now: number) => Effect.Effect<void, StoreUnavailable>;
    readonly find: (
      paymentId: string,
      now: number,
    ) => Effect.Effect<PaymentRecord | undefined, StoreUnavailable>;
    readonly claim: (
      claim: PaymentRequestClaim,
      now: number,
    ) => Effect.Effect<PaymentRequestClaimed, PaymentRejected | StoreUnavailable>;
    /** After the handler: `served` (done for good) or not (the same transaction may claim again). */
    readonly finish: (
      paymentId: string,
      lease: string,
      served: boolean,
      now: number,
    ) => Effect.Effect<void, StoreUnavailable>;
  }
>()("core/PaymentRequests") {}
