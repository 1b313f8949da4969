/**
 * A payment request whose expiry is already past, sealed under the running store's own key, as
 * the service would have issued it earlier: the way to pay "late" without waiting minutes.
 */
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { parseDecimalUnits } from "../../core/payments/money.ts";
import { sealPayment } from "../../core/payments/sealed-request.ts";
import type { PaymentRequest } from "../../core/payments/x402.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { paymentRequestOf } from "../../src/payments/server/issue-request.ts";

interface SealRuntime {
  readonly runPromise: <A, E>(effect: Effect.Effect<A, E, RequestSeal>) => Promise<A>;
}

/** The request `fresh` (a real 402's, for `method`) re-sealed to expire at `expiresAt`. */
export const expiredRequest = async (
  runtime: SealRuntime,
  fresh: PaymentRequest,
  method: string,
  expiresAt: number,
): Promise<PaymentRequest> => {
  const { mac } = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* RequestSeal;
    }),
  );
  const units = Result.getOrThrow(parseDecimalUnits(fresh.max_amount_required));
  const random = fresh.payment_id.split("_")[1] ?? "LateLateLate1234";
  const issued = sealPayment(
    mac,
    {
      binding: { resource: fresh.resource, method },
      units,
      payTo: fresh.payment_address,
      mint: fresh.asset_address,
      network: fresh.network,
      description: fresh.description,
    },
    // Another random part than the fresh request's: a request of its own.
    `${random.slice(0, 8)}Late`,
    expiresAt,
  );
  return paymentRequestOf(issued);
};
