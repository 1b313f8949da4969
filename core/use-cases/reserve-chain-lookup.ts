/**
 * Spends one chain lookup of the budget (core/payments/chain-lookup-budget.ts) before the RPC
 * call, or refuses the payment without one: "chain-lookups-limited" (per client or for
 * everyone, with the wait) or "payment-lookups-exhausted" (the payment_id has named its
 * distinct signatures). Callers skip it for signatures the ledger already knows. The counters
 * are the service's ceiling counter (core/ports/ceiling-counter.ts): checked all, counted in
 * all or none.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { noteRefusal } from "../ceilings/refusals.ts";
import {
  ChainLookupLimits,
  type LookupRequest,
  type LookupVerdict,
  lookupCounters,
  lookupVerdict,
  paymentCounterUntil,
} from "../payments/chain-lookup-budget.ts";
import { rejected } from "../payments/payment-rejected.ts";
import { CeilingCounter } from "../ports/ceiling-counter.ts";

/** Admits and counts one lookup at `now`, or says which ceiling refuses it (nothing counted then). */
export const admitChainLookup = Effect.fn("admitChainLookup")(function* (
  request: LookupRequest,
  now: number,
) {
  const counter = yield* CeilingCounter;
  const ceilings = yield* ChainLookupLimits;
  const bounded =
    request.payment === undefined
      ? request
      : {
          ...request,
          payment: { ...request.payment, expiresAt: paymentCounterUntil(request.payment.expiresAt, now) },
        };
  const verdict = yield* counter.admit(lookupCounters(bounded, ceilings, now), now);
  return lookupVerdict(verdict, now) satisfies LookupVerdict;
});

export const reserveChainLookup = Effect.fn("reserveChainLookup")(function* (
  request: LookupRequest,
  claimed: bigint,
) {
  const verdict = yield* admitChainLookup(request, yield* Clock.currentTimeMillis);
  if (verdict.admitted) return;
  yield* noteRefusal(
    verdict.scope === "payment"
      ? "chain-lookups-per-payment"
      : verdict.scope === "client"
        ? "chain-lookups-per-client"
        : "chain-lookups",
  );
  return yield* Effect.fail(
    verdict.scope === "payment"
      ? rejected("payment-lookups-exhausted", { claimed })
      : rejected("chain-lookups-limited", { claimed, retryAfterMs: verdict.retryAfterMs }),
  );
});
