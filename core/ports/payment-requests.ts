import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { PaymentRejected } from "../payments/payment-rejected.ts";
import type { Binding, IssuedPayment, PaymentRecord } from "../payments/x402-ledger.ts";
import type { QuotaView } from "../quota.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/** Queries credited to an identity for a payment. */
export interface PaymentGrant {
  readonly identity: string;
  readonly queries: number;
}

/** A claim of an issued payment with a verified transfer. */
export interface PaymentRequestClaim {
  readonly paymentId: string;
  readonly binding: Binding;
  /** The transaction signature that paid. */
  readonly signature: string;
  /** When the transfer happened (epoch ms). */
  readonly paidAt: number;
  /** Queries credited to `identity` in the same atomic step (/api/chat); the payment is then served. */
  readonly grant?: PaymentGrant;
  /** The sealed request the caller proved ours: claimed as open when the store holds no record. */
  readonly sealed?: IssuedPayment;
  /** The transfer was read on chain and is served or credited however late (ClaimInput.acceptsLate). */
  readonly acceptsLate?: boolean;
}

export interface PaymentRequestClaimed {
  /** Names this claim for `finish`. */
  readonly lease: string;
  readonly retry: boolean;
  /** The identity's quota after a grant. */
  readonly rateLimit: QuotaView | undefined;
}

export interface PaymentRequestFinished {
  /** Whether this finish ended the claim (false: another lease holds it, or it was finished before). */
  readonly changed: boolean;
  /** The identity's quota after a grant credited by this finish. */
  readonly rateLimit: QuotaView | undefined;
}

/**
 * The payment requests we issued in 402 responses (core/payments/x402-ledger.ts), shared by every
 * instance. A 402's request is sealed (core/payments/sealed-request.ts) and stored by nothing
 * until a payment claims it: `claim` takes the caller's proven request as `sealed` and writes it
 * then. `claim` is one atomic step: the payment_id consumed, the transaction signature marked
 * used (the ledger of POST /api/payment) and any grant credited, or none of them.
 */
export class PaymentRequests extends Context.Service<
  PaymentRequests,
  {
    /**
     * Stores an open request until its expiry plus the settle grace. The service's 402s never
     * call it (they are sealed); a stored open request is claimed exactly as a sealed one.
     */
    readonly issue: (issued: IssuedPayment, now: number) => Effect.Effect<void, StoreUnavailable>;
    readonly find: (
      paymentId: string,
      now: number,
    ) => Effect.Effect<PaymentRecord | undefined, StoreUnavailable>;
    readonly claim: (
      claim: PaymentRequestClaim,
      now: number,
    ) => Effect.Effect<PaymentRequestClaimed, PaymentRejected | StoreUnavailable>;
    /**
     * After the handler or the settlement: `served` (done for good) or not (the same transaction
     * may claim again). A `grant` with `served` is credited in the same atomic step, and only
     * when this finish ends the claim of `lease`: exactly once however often it is repeated.
     */
    readonly finish: (
      paymentId: string,
      lease: string,
      served: boolean,
      now: number,
      grant?: PaymentGrant,
    ) => Effect.Effect<PaymentRequestFinished, StoreUnavailable>;
  }
>()("core/PaymentRequests") {}
