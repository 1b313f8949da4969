/**
 * x402 v2 (PAYMENT-SIGNATURE, scheme exact) buying queries (/api/chat). Order: verify; reserve
 * the payment request for this transaction (a claim without a grant, under a lease) so that no
 * other transaction for the same payment_id is ever submitted; settle on chain; then one atomic
 * finish marks it served and credits the queries. A failed settlement releases the reservation
 * to the same transaction. Just before it is sent, the settlement is recorded as pending
 * (pending-record.ts): if it is not confirmed in the wait, or the instance or the store fails
 * after sending, the reconciler (reconciler.ts) credits the wallet once it lands, and a retry of
 * the same payload finds the transaction on chain (nothing sent) and is credited instead: once.
 */
import { PaymentRejected, rejected } from "../../../core/payments/payment-rejected.ts";
import { queriesFor } from "../../../core/payments/question-price.ts";
import { walletAccount } from "../../../core/payments/wallet-credits.ts";
import type { CreditAcceptance, CreditDialect, RunPayment } from "../server/dialect.ts";
import { paymentRequestOf } from "../server/issue-request.ts";
import { exactOffer } from "./exact-dialect.ts";
import {
  type CheckedPayment,
  checkExactPayment,
  type ExactFacilitator,
  exactReceipt,
  standingNow,
} from "./exact-payment.ts";
import { finishReservation, reserveChecked } from "./exact-reservation.ts";
import { isFinal } from "./fee-payer.ts";
import { closePendingSettlement, recordPendingSettlement } from "./pending-record.ts";
import { holdAfter, holdAndSimulate, letPayerGo } from "./settlement-guard.ts";
import { noteSettlement } from "./sponsor-brakes.ts";
import { PAYMENT_SIGNATURE_HEADER, paymentResponseHeader, SETTLEMENT_PENDING } from "./wire.ts";
import { settledWith } from "./x402-extensions.ts";

export interface ExactCreditDeps extends ExactFacilitator {
  /** Called once per settlement that failed (a metric). */
  readonly onSettlementFailed?: () => void;
}

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

export const exactCreditDialect = (deps: ExactCreditDeps): CreditDialect => ({
  name: "x402-v2",
  offer: exactOffer(deps),
  accept: async (request, route): Promise<CreditAcceptance> => {
    const header = request.headers.get(PAYMENT_SIGNATURE_HEADER);
    if (header === null) return { kind: "absent" };
    // Withdrawn (the fee payer is below its floor): nothing is signed, checked or sent.
    if (!deps.sponsor.offered()) return { kind: "refused", error: rejected("exact-sponsor-unavailable") };
    const { run, log } = route;
    const checked = await checkExactPayment(header, route.offer, deps, run, route.identity);
    if (!checked.ok) return { kind: "refused", error: checked.error };
    const payment = checked.value;
    const paymentId = payment.issued.paymentId;
    // What the payment buys is known before any money moves.
    const queries = queriesFor(payment.issued.units, route.unitsPerQuery);
    // One settlement per payer at a time, simulated while it is held.
    const ready = await holdAndSimulate(run, deps, payment);
    if (!ready.ok) return { kind: "refused", error: ready.error };
    // Nothing is submitted before this transaction holds the payment_id.
    const reserved = await reserveChecked(payment, route);
    if (!reserved.ok) {
      await letPayerGo(run, payment.hold, 0);
      return { kind: "refused", error: await whileHeld(run, payment, reserved.error) };
    }
    const { lease } = reserved.value;
    const receipt = { transaction: payment.cosigned.signature, network: deps.network, payer: payment.payer };
    const grant = { identity: walletAccount(payment.payer), queries };
    // Written ahead: if this instance or the store fails once it is sent, the reconciler credits it.
    const recorded = await recordPendingSettlement(run, {
      kind: "credit",
      cosigned: payment.cosigned,
      payer: payment.payer,
      paymentId,
      lease,
      binding: route.binding,
      grant,
    });
    if (!recorded.ok || !recorded.value) {
      await finishReservation(route, paymentId, lease, false);
      await letPayerGo(run, payment.hold, 0);
      return { kind: "refused", error: rejected("exact-sponsor-unavailable") };
    }
    // Sent before if either read says so: the record may have been released or lapsed between them.
    const sentBefore = payment.retry || reserved.value.retry;
    const settled = await deps.feePayer.submit(payment.cosigned, { sentBefore, fee: payment.fee });
    await noteSettlement(run, deps, payment, settled);
    if (!settled.ok) {
      // The reservation first, then the payer's cool-down: a twin arriving between the two
      // must not find the payer free while the reservation is still this transaction's.
      const released = await finishReservation(route, paymentId, lease, false);
      await letPayerGo(run, payment.hold, holdAfter(settled));
      if (!released.ok) log.warn("x402 v2 reservation not released: it lapses with its lease", { paymentId });
      // Failed for good: nothing to follow. Otherwise it may still land: the reconciler credits it.
      if (isFinal(settled)) await closePendingSettlement(run, receipt.transaction, lease);
      if (settled.unknown === true) {
        log.warn(
          "x402 v2 settlement not confirmed in time: pending, credited by the reconciler if it lands",
          {
            paymentId,
            transaction: receipt.transaction,
          },
        );
        return {
          kind: "refused",
          error: rejected("exact-settlement-pending"),
          headers: paymentResponseHeader({ success: false, errorReason: SETTLEMENT_PENDING, ...receipt }),
        };
      }
      log.error("x402 v2 settlement failed: no queries credited, the same payload may be sent again", {
        paymentId,
        transaction: receipt.transaction,
        error: settled.error,
      });
      deps.onSettlementFailed?.();
      return {
        kind: "refused",
        error: rejected("exact-settlement-failed"),
        headers: paymentResponseHeader({
          success: false,
          errorReason: "exact-settlement-failed",
          ...receipt,
        }),
      };
    }
    // The wallet that signed the transfer (the payer) owns what it bought.
    const credited = await finishReservation(route, paymentId, lease, true, grant);
    await letPayerGo(run, payment.hold, 0);
    // Credited here, or by another request that holds the claim now: this entry is done. A
    // store that failed leaves it to the reconciler, which credits it once.
    if (credited.ok) await closePendingSettlement(run, receipt.transaction, lease);
    if (!credited.ok || !credited.value.changed) {
      // Paid on chain but not credited here: the reconciler (store down) or the request that
      // holds the claim now (ours lapsed mid-settlement) credits it.
      log.error("x402 v2 payment settled but not credited by this request", {
        paymentId,
        transaction: receipt.transaction,
      });
      const refusal = credited.ok
        ? await whileHeld(run, payment, rejected("payment-already-used"))
        : rejected("exact-settlement-pending");
      return { kind: "refused", error: refusal };
    }
    return {
      kind: "accepted",
      payment: {
        dialect: "x402-v2",
        request: paymentRequestOf(payment.issued),
        receipt: exactReceipt(payment),
      },
      credited: {
        queries,
        units: payment.issued.units,
        rateLimit: credited.value.rateLimit,
        payer: payment.payer,
      },
      headers: paymentResponseHeader(
        settledWith(deps.extensions, { success: true, ...receipt }, request.url),
      ),
    };
  },
});
