/**
 * The paywall's x402 v2 dialect (scheme exact on Solana, the service as its own facilitator).
 * Verify (exact-payment.ts), then claim the payment request in the shared store with the
 * transaction's id (one atomic step: one instance wins, a replay is refused), run the handler,
 * and only after a response below 500 submit the transaction and wait for confirmation.
 * A handler that fails leaves the claim open to the same payload (nothing moved). A settlement
 * that fails after the handler ran is logged and counted, and the paid content is replaced by a
 * 402 with a failed PAYMENT-RESPONSE; the same payload may be sent again (it is one
 * transaction, so it can land only once). The settlement is recorded as pending just before it
 * is sent: one whose outcome stays unknown (`settlement_pending`) is followed by the reconciler,
 * and once it lands the same payload is served without anything sent again.
 */
import { rejected } from "../../../core/payments/payment-rejected.ts";
import { SETTLEMENT_LOCK_MS } from "../../../core/payments/settlement-locks.ts";
import { x402Error } from "../../../core/payments/x402.ts";
import type { Logger } from "../../observability/log.ts";
import type { Acceptance, Offering, PaidRoute, PaymentDialect } from "../server/dialect.ts";
import { paymentRequestOf } from "../server/issue-request.ts";
import { withHeaders } from "../server/spec-dialect.ts";
import { x402Rejection } from "../server/x402-errors.ts";
import {
  type CheckedPayment,
  checkExactPayment,
  type ExactFacilitator,
  exactReceipt,
} from "./exact-payment.ts";
import { finishReservation, reserveChecked } from "./exact-reservation.ts";
import { CONFIRM_TIMEOUT_MS, isFinal } from "./fee-payer.ts";
import { closePendingSettlement, recordPendingSettlement } from "./pending-record.ts";
import { holdAfter, holdAndSimulate, letPayerGo } from "./settlement-guard.ts";
import { noteSettlement } from "./sponsor-brakes.ts";
import {
  PAYMENT_SIGNATURE_HEADER,
  paymentRequiredHeader,
  paymentResponseHeader,
  SETTLEMENT_PENDING,
  type SolanaNetworkId,
} from "./wire.ts";
import { settledWith } from "./x402-extensions.ts";

export interface ExactDialectDeps extends ExactFacilitator {
  readonly logger: Logger;
  /** Called once per settlement that failed after the handler ran (a metric). */
  readonly onSettlementFailed?: () => void;
  /** The handler's deadline (default HANDLER_DEADLINE_MS; tests shorten it). */
  readonly handlerDeadlineMs?: number;
}

/**
 * How long a paywalled handler may run between the payer's simulation and our send: the payer's
 * lock (SETTLEMENT_LOCK_MS, 120 s) must outlive the handler AND the confirmation wait (30 s),
 * with a margin for the store and RPC steps around them. A handler past it is not settled.
 */
export const HANDLER_DEADLINE_MS = SETTLEMENT_LOCK_MS - CONFIRM_TIMEOUT_MS - 30_000;

/** The PAYMENT-REQUIRED header of a 402 (x402 v2 carries the offer in a header, not the body). */
export const exactOffer =
  (facilitator: ExactFacilitator): Offering["offer"] =>
  (request, url, message, extensions) =>
    // Withdrawn while the fee payer is below its floor: the 402 offers the spec's dialect only.
    !facilitator.sponsor.offered()
      ? { headers: {}, body: {} }
      : {
          headers: paymentRequiredHeader(
            request,
            url,
            {
              network: facilitator.network,
              feePayer: facilitator.feePayer.address,
              blockhash: facilitator.feePayer.blockhashHint(),
              paymentIdRequired: facilitator.paymentIdRequired,
              extensions: facilitator.extensions,
            },
            message ?? x402Error("PAYMENT_REQUIRED", "Payment required", {}).body.Message,
            extensions,
          ),
          body: {},
        };

/**
 * The 402 that replaces paid content not settled: the reason, and a PAYMENT-RESPONSE naming the
 * transaction (`settlement_pending` while its outcome is unknown, x402's non-terminal result).
 */
const refusedResponse = (
  reason: "exact-settlement-failed" | "exact-settlement-pending" | "exact-sponsor-unavailable",
  base: { readonly transaction: string; readonly network: SolanaNetworkId; readonly payer: string },
) => {
  const { body } = x402Rejection(rejected(reason));
  const errorReason = reason === "exact-settlement-pending" ? SETTLEMENT_PENDING : reason;
  return Response.json(body, {
    status: 402,
    headers: {
      "Cache-Control": "no-store",
      "Retry-After": reason === "exact-settlement-pending" ? "60" : "5",
      ...paymentResponseHeader({ success: false, errorReason, ...base }),
    },
  });
};

export const exactDialect = (deps: ExactDialectDeps): PaymentDialect => {
  const settleAfter = async (
    checked: CheckedPayment,
    route: PaidRoute,
    lease: string,
    response: Response,
    url: string,
    heldAt: number,
  ) => {
    const paymentId = checked.issued.paymentId;
    // A handler's own 4xx answer is a served response (as in the spec's dialect); a 5xx is not:
    // the claim stays open to the same payload, and no money moves.
    if (response.status >= 500) {
      await finishReservation(route, paymentId, lease, false);
      await letPayerGo(route.run, checked.hold, 0);
      return response;
    }
    // Past the deadline the payer's lock may lapse before the settlement ends, and another payment
    // of the same balance be simulated against it: nothing is sent, the same payload may come again.
    if (Date.now() - heldAt > (deps.handlerDeadlineMs ?? HANDLER_DEADLINE_MS)) {
      await finishReservation(route, paymentId, lease, false);
      await letPayerGo(route.run, checked.hold, 0);
      deps.logger.warn("x402 v2 handler ran past its deadline: paid content withheld, nothing sent", {
        paymentId,
      });
      const { body } = x402Rejection(rejected("exact-handler-deadline"));
      return Response.json(body, {
        status: 503,
        headers: { "Cache-Control": "no-store", "Retry-After": "5" },
      });
    }
    const transaction = checked.cosigned.signature;
    // Written ahead: if it is not confirmed in the wait, or this instance or the store fails once
    // it is sent, the reconciler follows it (reconciler.ts). Unrecorded, nothing is sent.
    const recorded = await recordPendingSettlement(route.run, {
      kind: "paywall",
      cosigned: checked.cosigned,
      payer: checked.payer,
      paymentId,
      lease,
      binding: route.binding,
    });
    if (!recorded.ok || !recorded.value) {
      await finishReservation(route, paymentId, lease, false);
      await letPayerGo(route.run, checked.hold, 0);
      return refusedResponse("exact-sponsor-unavailable", {
        transaction,
        network: deps.network,
        payer: checked.payer,
      });
    }
    const settled = await deps.feePayer.submit(checked.cosigned, {
      sentBefore: checked.retry,
      fee: checked.fee,
    });
    await noteSettlement(route.run, deps, checked, settled);
    // The reservation first, then the payer (with its cool-down after a failure): a twin between
    // the two must not find the payer free while the reservation is still this transaction's.
    const finished = await finishReservation(route, paymentId, lease, settled.ok);
    await letPayerGo(route.run, checked.hold, holdAfter(settled));
    if (!finished.ok)
      deps.logger.warn("x402 v2 payment outcome not recorded", { paymentId, served: settled.ok });
    else if (isFinal(settled)) await closePendingSettlement(route.run, transaction, lease);
    const base = { transaction, network: deps.network, payer: checked.payer };
    if (settled.ok)
      return withHeaders(
        response,
        paymentResponseHeader(settledWith(deps.extensions, { success: true, ...base }, url)),
      );
    if (settled.unknown === true) {
      deps.logger.warn("x402 v2 settlement not confirmed in time: paid content withheld, pending", {
        paymentId,
        transaction,
      });
      return refusedResponse("exact-settlement-pending", base);
    }
    deps.logger.error("x402 v2 settlement failed after the handler ran: paid content withheld", {
      paymentId,
      transaction,
      error: settled.error,
    });
    deps.onSettlementFailed?.();
    return refusedResponse("exact-settlement-failed", base);
  };

  return {
    name: "x402-v2",
    paymentIdRequired: deps.paymentIdRequired ?? false,
    offer: exactOffer(deps),
    accept: async (request, route): Promise<Acceptance> => {
      const header = request.headers.get(PAYMENT_SIGNATURE_HEADER);
      if (header === null) return { kind: "absent" };
      // Withdrawn (the fee payer is below its floor): nothing is signed, checked or sent.
      if (!deps.sponsor.offered()) return { kind: "refused", error: rejected("exact-sponsor-unavailable") };
      const checked = await checkExactPayment(header, route.offer, deps, route.run, route.client);
      if (!checked.ok) return { kind: "refused", error: checked.error };
      // Held before the handler runs (a busy payer is told so now, not after it was served),
      // and simulated while held.
      const ready = await holdAndSimulate(route.run, deps, checked.value);
      const heldAt = Date.now();
      if (!ready.ok) return { kind: "refused", error: ready.error };
      const claimed = await reserveChecked(checked.value, route);
      if (!claimed.ok) {
        await letPayerGo(route.run, checked.value.hold, 0);
        return { kind: "refused", error: claimed.error };
      }
      const { lease } = claimed.value;
      return {
        kind: "accepted",
        payment: {
          dialect: "x402-v2",
          request: paymentRequestOf(checked.value.issued),
          receipt: exactReceipt(checked.value),
        },
        settle: (response) => settleAfter(checked.value, route, lease, response, request.url, heldAt),
      };
    },
  };
};
