/**
 * The issued x402 payment requests of the memory store, beside its quota and signature state:
 * every method is synchronous, so a claim (payment consumed, signature marked used, grant
 * credited) or a finish (served, grant credited) happens in one turn of the event loop,
 * atomically for this process.
 */
import * as Result from "effect/Result";
import type { PaymentRejected } from "../../../core/payments/payment-rejected.ts";
import type { UsedSignature } from "../../../core/payments/signature-ledger.ts";
import * as Ledger from "../../../core/payments/x402-ledger.ts";
import type { PaymentGrant, PaymentRequestFinished } from "../../../core/ports/payment-requests.ts";
import type { QuotaView } from "../../../core/quota.ts";

/** An issued request and when it may be forgotten. */
interface KeptPayment {
  readonly record: Ledger.PaymentRecord;
  readonly forgetAt: number;
}

export interface SharedState {
  /** The used-signature ledger of POST /api/payment. */
  readonly signatures: Map<string, UsedSignature>;
  /** Credits `queries` to `identity`; the identity's view after it. */
  readonly grant: (identity: string, queries: number, now: number) => QuotaView;
  /** Tells the store the callers' time, which its sweeper goes by. */
  readonly note: (now: number) => void;
}

export const makeMemoryPaymentRequests = ({ signatures, grant: grantTo, note }: SharedState) => {
  const payments = new Map<string, KeptPayment>();
  const live = (paymentId: string, now: number): Ledger.PaymentRecord | undefined => {
    const kept = payments.get(paymentId);
    return kept !== undefined && !Ledger.isForgotten(kept.forgetAt, now) ? kept.record : undefined;
  };
  const keep = (record: Ledger.PaymentRecord, now: number) =>
    payments.set(record.issued.paymentId, { record, forgetAt: Ledger.forgetAt(record, now) });

  return {
    issuePayment: (issued: Ledger.IssuedPayment, now: number): void => {
      note(now);
      keep({ issued, state: { kind: "open" } }, now);
    },

    findPayment: live,

    /** Consumes the payment, marks the signature used and credits any grant, or does none of it. */
    claimPayment: (
      paymentId: string,
      claim: Ledger.ClaimInput,
      now: number,
    ): Result.Result<
      { readonly retry: boolean; readonly rateLimit: QuotaView | undefined },
      PaymentRejected
    > => {
      const claimed = Ledger.claimPayment(live(paymentId, now), signatures.get(claim.signature), claim, now);
      if (Result.isFailure(claimed)) return Result.fail(claimed.failure);
      const { record, used, retry, credit } = claimed.success;
      keep(record, now);
      if (used !== undefined) signatures.set(claim.signature, used);
      const rateLimit = credit > 0 ? grantTo(claim.identity, credit, now) : undefined;
      return Result.succeed({ retry, rateLimit });
    },

    /** Ends the claim of `lease` and credits a served grant with it, or (not that claim) does neither. */
    finishPayment: (
      paymentId: string,
      lease: string,
      served: boolean,
      now: number,
      grant?: PaymentGrant,
    ): PaymentRequestFinished => {
      const record = live(paymentId, now);
      if (record === undefined) return { changed: false, rateLimit: undefined };
      const next = Ledger.finishPayment(record, lease, served);
      if (next === record) return { changed: false, rateLimit: undefined };
      keep(next, now);
      const credit = served ? grant : undefined;
      return {
        changed: true,
        rateLimit: credit === undefined ? undefined : grantTo(credit.identity, credit.queries, now),
      };
    },

    sweepPayments: (now: number): void => {
      for (const [paymentId, kept] of payments) {
        if (Ledger.isForgotten(kept.forgetAt, now)) payments.delete(paymentId);
      }
    },

    paymentCount: () => payments.size,
  };
};
