/**
 * The paywall's x402 v2 dialect (scheme exact on Solana, the service as its own facilitator).
 * Verify (exact-payment.ts), then claim the payment request in the shared store with the
 * transaction's id (one atomic step: one instance wins, a replay is refused), run the handler,
 * and only after a response below 500 submit the transaction and wait for confirmation.
 * A handler that fails leaves the claim open to the same payload (nothing moved). A settlement
 * that fails after the handler ran is logged and counted, and the paid content is replaced by a
 * 402 with a failed PAYMENT-RESPONSE; the same payload may be sent again (it is one
 * transaction, so it can land only once).
 */
import { rejected } from "../../../core/payments/payment-rejected.ts";
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
import { holdAfter, holdAndSimulate, letPayerGo } from "./settlement-guard.ts";
import { PAYMENT_SIGNATURE_HEADER, paymentRequiredHeader, paymentResponseHeader } from "./wire.ts";
import { settledWith } from "./x402-extensions.ts";

export interface ExactDialectDeps extends ExactFacilitator {
  readonly logger: Logger;
  /** Called once per settlement that failed after the handler ran (a metric). */
  readonly onSettlementFailed?: () => void;
}

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

export const exactDialect = (deps: ExactDialectDeps): PaymentDialect => {
  const settleAfter = async (
    checked: CheckedPayment,
    route: PaidRoute,
    lease: string,
    response: Response,
    url: string,
  ) => {
    const paymentId = checked.issued.paymentId;
    // A handler's own 4xx answer is a served response (as in the spec's dialect); a 5xx is not:
    // the claim stays open to the same payload, and no money moves.
    if (response.status >= 500) {
      await finishReservation(route, paymentId, lease, false);
      await letPayerGo(route.run, checked.hold, 0);
      return response;
    }
    const settled = await deps.feePayer.submit(checked.cosigned, {
      sentBefore: checked.retry,
      fee: checked.fee,
    });
    // The reservation first, then the payer (with its cool-down after a failure): a twin between
    // the two must not find the payer free while the reservation is still this transaction's.
    const finished = await finishReservation(route, paymentId, lease, settled.ok);
    await letPayerGo(route.run, checked.hold, holdAfter(settled));
    if (!finished.ok)
      deps.logger.warn("x402 v2 payment outcome not recorded", { paymentId, served: settled.ok });
    const base = { transaction: checked.cosigned.signature, network: deps.network, payer: checked.payer };
    if (settled.ok)
      return withHeaders(
        response,
        paymentResponseHeader(settledWith(deps.extensions, { success: true, ...base }, url)),
      );
    deps.logger.error("x402 v2 settlement failed after the handler ran: paid content withheld", {
      paymentId,
      transaction: checked.cosigned.signature,
      error: settled.error,
    });
    deps.onSettlementFailed?.();
    const { body } = x402Rejection(rejected("exact-settlement-failed"));
    return Response.json(body, {
      status: 402,
      headers: {
        "Cache-Control": "no-store",
        "Retry-After": "5",
        ...paymentResponseHeader({ success: false, errorReason: "exact-settlement-failed", ...base }),
      },
    });
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
        settle: (response) => settleAfter(checked.value, route, lease, response, request.url),
      };
    },
  };
};
