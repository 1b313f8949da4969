/**
 * The fee payer's guard around sending a transaction: the paying wallet and its source token
 * account are held (SettlementLocks, across instances) before the transaction is simulated and
 * until it settles, and after a failure for a cool-down. N transactions that spend one balance
 * cannot all pass simulation at once: one holds the payer, the others are told to wait, and the
 * next is simulated against the balance the first left ("processed" state). So a transaction is
 * sent only after a simulation nobody else's settlement could have made stale.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { rejected } from "../../../core/payments/payment-rejected.ts";
import {
  type Acquired,
  type PayerHold,
  SETTLEMENT_COOL_DOWN_MS,
  SETTLEMENT_LOCK_MS,
} from "../../../core/payments/settlement-locks.ts";
import { SettlementLocks } from "../../../core/ports/settlement-locks-store.ts";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import type { RunPayment } from "../server/dialect.ts";
import {
  type CheckedPayment,
  type ExactFacilitator,
  type ExactRefusal,
  simulateHeld,
} from "./exact-payment.ts";
import { FAILED_ON_CHAIN, type Settlement } from "./fee-payer.ts";
import { checkSponsorable } from "./sponsor-brakes.ts";

/** Runs an effect that needs the locks (a route's RunPayment, or the facilitator's runner). */
export type RunWithLocks = <A, E>(effect: Effect.Effect<A, E, SettlementLocks>) => Promise<Outcome<A, E>>;

/** Whether this transaction now holds the payer, or whose settlement is in the way. */
export const holdPayer = (run: RunWithLocks, hold: PayerHold): Promise<Outcome<Acquired, StoreUnavailable>> =>
  run(
    Effect.flatMap(SettlementLocks, (locks) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        locks.acquire(hold.keys, hold.holder, now, SETTLEMENT_LOCK_MS),
      ),
    ),
  );

/**
 * Holds the payer and simulates the payment: ok with the payer held, or the refusal (busy, or
 * the simulation's) with the payer let go again (a failed simulation cost the fee payer nothing).
 */
export const holdAndSimulate = async (
  run: RunPayment,
  facilitator: ExactFacilitator,
  payment: CheckedPayment,
): Promise<Outcome<void, ExactRefusal>> => {
  // A cooled-down wallet, or a spent hourly budget of losses, is refused before anything is held
  // or simulated. A retry of a transaction already sent is not: it may only land once.
  if (!payment.retry) {
    const sponsorable = await checkSponsorable(run, facilitator, payment.payer);
    if (!sponsorable.ok) return sponsorable;
  }
  const held = await holdPayer(run, payment.hold);
  if (!held.ok) return held;
  // This very transaction's settlement in flight (a twin request): wait for it, never pay anew.
  if (held.value === "held-by-holder") return { ok: false, error: rejected("exact-payment-in-progress") };
  if (held.value === "held-by-other") return { ok: false, error: rejected("exact-payer-busy") };
  const simulated = await simulateHeld(run, facilitator, payment);
  if (!simulated.ok) await letPayerGo(run, payment.hold, 0);
  return simulated;
};

/**
 * How long the payer stays held after a settlement: not at all after a success; the cool-down
 * after a transaction that failed on chain; and after one whose fate is unknown (not confirmed
 * in time, or refused by the RPC), as long as its blockhash may still let it land, so no second
 * transaction is simulated against a state the first may still change.
 */
export const holdAfter = (settled: Settlement): number => {
  if (settled.ok) return 0;
  return settled.error === FAILED_ON_CHAIN ? SETTLEMENT_COOL_DOWN_MS : SETTLEMENT_LOCK_MS;
};

/** Lets the payer go, at once or after `coolDownMs` (holdAfter). Unrecorded, the hold lapses. */
export const letPayerGo = async (run: RunWithLocks, hold: PayerHold, coolDownMs: number): Promise<void> => {
  await run(
    Effect.flatMap(SettlementLocks, (locks) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        locks.release(hold.keys, hold.holder, now, coolDownMs),
      ),
    ),
  );
};
