/**
 * /api/chat bought with x402 v2 (PAYMENT-SIGNATURE, scheme exact). The goods are credited
 * queries, so the order differs from the paywall's: verify, settle on chain, then one atomic
 * claim that consumes the payment request, marks the transaction used and credits the queries.
 * Two instances racing on one payload submit the same transaction (its id is our deterministic
 * signature), so the money moves once, and the claim lets exactly one of them credit it.
 */
import { Effect } from "effect";
import type { Context } from "hono";
import { BaseUnits, queriesFor } from "../../core/money.ts";
import { rejected } from "../../core/payment-rejected.ts";
import { PaymentRequests } from "../../core/ports/payment-requests.ts";
import { withHeaders } from "../x402/server/spec-dialect.ts";
import { checkExactPayment, type ExactFacilitator } from "../x402/v2/exact-payment.ts";
import { paymentResponseHeader } from "../x402/v2/wire.ts";
import type { AppEnv } from "./app-env.ts";
import { type Bought, CHAT_BINDING, type ChatPaymentDeps, refusedPurchase } from "./chat-payment.ts";
import { runOutcome } from "./run-effect.ts";

export const buyWithExactPayment = async (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  facilitator: ExactFacilitator,
  header: string,
): Promise<Bought> => {
  const identity = c.get("identity");
  const log = c.get("log");
  const checked = await checkExactPayment(header, CHAT_BINDING, facilitator, async (effect) =>
    runOutcome(deps.runtime, effect),
  );
  if (!checked.ok) return refusedPurchase(c, deps, checked.error);
  const { issued, cosigned, payer, checkedAt } = checked.value;
  const base = { transaction: cosigned.signature, network: facilitator.network, payer };
  const settled = await facilitator.feePayer.submit(cosigned);
  if (!settled.ok) {
    log.error("x402 v2 settlement failed: no queries credited", {
      transaction: cosigned.signature,
      error: settled.error,
    });
    deps.metrics.count("x402_settlement_failures_total");
    const refused = await refusedPurchase(c, deps, rejected("exact-settlement-failed"));
    const failed = paymentResponseHeader({ success: false, errorReason: "exact-settlement-failed", ...base });
    return refused.ok ? refused : { ok: false, response: withHeaders(refused.response, failed) };
  }
  const queries = queriesFor(BaseUnits(issued.units));
  const claimed = await runOutcome(
    deps.runtime,
    Effect.flatMap(PaymentRequests, (requests) =>
      requests.claim(
        {
          paymentId: issued.paymentId,
          binding: CHAT_BINDING,
          signature: cosigned.signature,
          paidAt: checkedAt,
          grant: { identity, queries },
        },
        checkedAt,
      ),
    ),
  );
  if (!claimed.ok) return refusedPurchase(c, deps, claimed.error);
  deps.metrics.count("payment_grants_total");
  deps.metrics.count("payment_queries_granted_total", {}, queries);
  log.info("x402 v2 payment granted", {
    identity,
    signature: cosigned.signature,
    queries,
    rateLimit: claimed.value.rateLimit,
  });
  deps.recorder.paid(log, { identity, units: issued.units, queries, dialect: "x402-v2" });
  return { ok: true, headers: paymentResponseHeader({ success: true, ...base }) };
};
