/**
 * Spends one chain lookup of the budget (core/payments/chain-lookup-budget.ts) before the RPC
 * call, or refuses the payment without one: "chain-lookups-limited" (per client or for
 * everyone, with the wait) or "payment-lookups-exhausted" (the payment_id has named its
 * distinct signatures). Callers skip it for signatures the ledger already knows.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import {
  ChainLookupLimits,
  type LookupRequest,
  paymentCounterUntil,
} from "../payments/chain-lookup-budget.ts";
import { rejected } from "../payments/payment-rejected.ts";
import { ChainLookupBudget } from "../ports/chain-lookup-budget.ts";

export const reserveChainLookup = Effect.fn("reserveChainLookup")(function* (
  request: LookupRequest,
  claimed: bigint,
) {
  const budget = yield* ChainLookupBudget;
  const ceilings = yield* ChainLookupLimits;
  const now = yield* Clock.currentTimeMillis;
  const bounded =
    request.payment === undefined
      ? request
      : {
          ...request,
          payment: { ...request.payment, expiresAt: paymentCounterUntil(request.payment.expiresAt, now) },
        };
  const verdict = yield* budget.reserve(bounded, ceilings, now);
  if (verdict.admitted) return;
  return yield* Effect.fail(
    verdict.scope === "payment"
      ? rejected("payment-lookups-exhausted", { claimed })
      : rejected("chain-lookups-limited", { claimed, retryAfterMs: verdict.retryAfterMs }),
  );
});
