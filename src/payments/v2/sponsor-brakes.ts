/**
 * The brakes on what failed settlements cost the sponsor (core/payments/sponsor-losses.ts), at
 * the two points every sponsored settlement passes: before its simulation (a cooled-down wallet,
 * or a spent hourly budget, is refused and nothing is signed or simulated), and after a
 * transaction this call sent failed on chain (the wallet's next strike, the hour's losses raised;
 * past the budget x402 v2 is withdrawn on this instance until the hour turns, and on the others
 * as soon as they read the standing).
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { PaymentRejected } from "../../../core/payments/payment-rejected.ts";
import {
  budgetSpent,
  DEFAULT_SPONSOR_LOSS_LAMPORTS_PER_HOUR,
  LOSS_WINDOW_MS,
  lossWindowOf,
  type SponsorStanding,
  sponsorRefusal,
} from "../../../core/payments/sponsor-losses.ts";
import { SponsorLosses } from "../../../core/ports/sponsor-losses-store.ts";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import type { ExactFacilitator } from "./exact-payment.ts";
import { FAILED_ON_CHAIN, type Settlement } from "./fee-payer.ts";

export type RunBrakes = <A, E>(effect: Effect.Effect<A, E, SponsorLosses>) => Promise<Outcome<A, E>>;

const budgetOf = (facilitator: ExactFacilitator) =>
  facilitator.losses?.budgetLamportsPerHour ?? DEFAULT_SPONSOR_LOSS_LAMPORTS_PER_HOUR;

/** Withdraws v2 until the hour turns once the standing shows the budget spent. */
const judge = (facilitator: ExactFacilitator, standing: SponsorStanding, now: number) => {
  if (budgetSpent(standing.lostThisHour, budgetOf(facilitator)))
    facilitator.sponsor.withdrawUntil((lossWindowOf(now) + 1) * LOSS_WINDOW_MS);
};

/** Before a settlement is simulated: refused when the wallet is cooled down or the hour's budget is spent. */
export const checkSponsorable = async (
  run: RunBrakes,
  facilitator: ExactFacilitator,
  payer: string,
): Promise<Outcome<void, PaymentRejected | StoreUnavailable>> => {
  const read = await run(
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis;
      const standing = yield* Effect.flatMap(SponsorLosses, (losses) => losses.standing(payer, now));
      return { now, standing };
    }),
  );
  if (!read.ok) return read;
  const { now, standing } = read.value;
  judge(facilitator, standing, now);
  const refusal = sponsorRefusal(standing, now, budgetOf(facilitator));
  if (refusal === undefined) return { ok: true, value: undefined };
  facilitator.losses?.onRefused?.(refusal.reason);
  return {
    ok: false,
    error: new PaymentRejected({ reason: refusal.reason, retryAfterMs: refusal.retryAfterMs }),
  };
};

/** After a settlement: a transaction this call sent that failed on chain is a loss and a strike. */
export const noteSettlement = async (
  run: RunBrakes,
  facilitator: ExactFacilitator,
  payment: { readonly payer: string; readonly fee: bigint },
  settled: Settlement,
): Promise<void> => {
  if (settled.ok || settled.error !== FAILED_ON_CHAIN || settled.sentNow !== true) return;
  const recorded = await run(
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis;
      const standing = yield* Effect.flatMap(SponsorLosses, (losses) =>
        losses.recordLoss(payment.payer, Number(payment.fee), now),
      );
      return { now, standing };
    }),
  );
  if (recorded.ok) judge(facilitator, recorded.value.standing, recorded.value.now);
};
