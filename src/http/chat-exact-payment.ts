/**
 * /api/chat bought with x402 v2 (PAYMENT-SIGNATURE, scheme exact). The goods are credited
 * queries. Order: verify; reserve the payment request for this transaction (a claim without a
 * grant, under a lease) so that no other transaction for the same payment_id is ever
 * submitted; settle on chain; then one atomic finish marks it served and credits the queries.
 * A failed settlement releases the reservation to the same transaction. If the instance dies
 * after settling, the lease lapses and a retry of the same payload claims again, finds the
 * transaction on chain (settled, nothing sent) and is credited then: once.
 */
import type { Context } from "hono";
import { BaseUnits, queriesFor } from "../../core/payments/money.ts";
import { PaymentRejected, rejected } from "../../core/payments/payment-rejected.ts";
import type { AppEnv } from "../hono-kit/app-env.ts";
import { runOutcome } from "../hono-kit/run-effect.ts";
import type { RunPayment } from "../payments/server/dialect.ts";
import { withHeaders } from "../payments/server/spec-dialect.ts";
import {
  type CheckedPayment,
  checkExactPayment,
  type ExactFacilitator,
  standingNow,
} from "../payments/v2/exact-payment.ts";
import { finishReservation, reserveChecked } from "../payments/v2/exact-reservation.ts";
import { paymentResponseHeader } from "../payments/v2/wire.ts";
import { type Bought, CHAT_BINDING, type ChatPaymentDeps, refusedPurchase } from "./chat-payment.ts";

const settlementFailed = async (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  checked: CheckedPayment,
  receipt: ReturnType<typeof receiptOf>,
  error: string,
): Promise<Bought> => {
  c.get("log").error("x402 v2 settlement failed: no queries credited, the same payload may be sent again", {
    paymentId: checked.issued.paymentId,
    transaction: receipt.transaction,
    error,
  });
  deps.metrics.count("x402_settlement_failures_total");
  const refused = await refusedPurchase(c, deps, rejected("exact-settlement-failed"));
  const failed = paymentResponseHeader({
    success: false,
    errorReason: "exact-settlement-failed",
    ...receipt,
  });
  return refused.ok ? refused : { ok: false, response: withHeaders(refused.response, failed) };
};

/**
 * "Already used" turned into "in progress" when the request is still this very transaction's
 * and not served (claimed under a live or lapsed lease, or released to it after a failure): it
 * may still be credited, so the client must send the same payload again, not pay anew.
 */
const whileHeld = async <E>(run: RunPayment, payment: CheckedPayment, error: E | PaymentRejected) => {
  if (!(error instanceof PaymentRejected) || error.reason !== "payment-already-used") return error;
  return (await standingNow(run, payment.issued.paymentId, payment.cosigned.signature)) === "pending"
    ? rejected("exact-payment-in-progress")
    : error;
};

const receiptOf = (checked: CheckedPayment, facilitator: ExactFacilitator) => ({
  transaction: checked.cosigned.signature,
  network: facilitator.network,
  payer: checked.payer,
});

export const buyWithExactPayment = async (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  facilitator: ExactFacilitator,
  header: string,
): Promise<Bought> => {
  const identity = c.get("identity");
  const log = c.get("log");
  const run: RunPayment = async (effect) => runOutcome(deps.runtime, effect);
  const store = { binding: CHAT_BINDING, run };
  const checked = await checkExactPayment(header, CHAT_BINDING, facilitator, run);
  if (!checked.ok) return refusedPurchase(c, deps, checked.error);
  const payment = checked.value;
  const paymentId = payment.issued.paymentId;
  // What the payment buys is known before any money moves.
  const queries = queriesFor(BaseUnits(payment.issued.units));
  // Nothing is submitted before this transaction holds the payment_id.
  const reserved = await reserveChecked(payment, store);
  if (!reserved.ok) return refusedPurchase(c, deps, await whileHeld(run, payment, reserved.error));
  const { lease } = reserved.value;
  const receipt = receiptOf(payment, facilitator);
  // Sent before if either read says so: the record may have been released or lapsed between them.
  const sentBefore = payment.retry || reserved.value.retry;
  const settled = await facilitator.feePayer.submit(payment.cosigned, { sentBefore });
  if (!settled.ok) {
    const released = await finishReservation(store, paymentId, lease, false);
    if (!released.ok) log.warn("x402 v2 reservation not released: it lapses with its lease", { paymentId });
    return settlementFailed(c, deps, payment, receipt, settled.error);
  }
  const credited = await finishReservation(store, paymentId, lease, true, { identity, queries });
  if (!credited.ok || !credited.value.changed) {
    // Paid on chain but not credited here: the same payload credits it once the lease lapses
    // (store down), or another request already holds the claim (ours lapsed mid-settlement).
    log.error("x402 v2 payment settled but not credited by this request", {
      paymentId,
      transaction: receipt.transaction,
    });
    const refusal = credited.ok
      ? await whileHeld(run, payment, rejected("payment-already-used"))
      : credited.error;
    return refusedPurchase(c, deps, refusal);
  }
  deps.metrics.count("payment_grants_total");
  deps.metrics.count("payment_queries_granted_total", {}, queries);
  log.info("x402 v2 payment granted", {
    identity,
    signature: receipt.transaction,
    queries,
    rateLimit: credited.value.rateLimit,
  });
  deps.recorder.paid(log, { identity, units: payment.issued.units, queries, dialect: "x402-v2" });
  return { ok: true, headers: paymentResponseHeader({ success: true, ...receipt }) };
};
