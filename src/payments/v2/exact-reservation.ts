/**
 * The store side of an x402 v2 payment, shared by the paywall dialect and /api/chat: a checked
 * payment is claimed under a lease BEFORE its transaction is submitted (one atomic step in the
 * shared store: only one transaction per payment_id ever reaches the chain), and the claim is
 * finished after the settlement: served (with the chat's queries credited in the same step) or
 * unserved (open again to the same transaction only).
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { type PaymentGrant, PaymentRequests } from "../../../core/ports/payment-requests.ts";
import type { PaidRoute } from "../server/dialect.ts";
import type { CheckedPayment } from "./exact-payment.ts";

type Store = Pick<PaidRoute, "binding" | "run">;

/** Claims a checked payment without a grant: the lease is the reservation. */
export const reserveChecked = (checked: CheckedPayment, store: Store) =>
  store.run(
    Effect.flatMap(PaymentRequests, (requests) =>
      requests.claim(
        {
          paymentId: checked.issued.paymentId,
          binding: store.binding,
          signature: checked.cosigned.signature,
          paidAt: checked.checkedAt,
          // Claimed as open when nothing is stored yet: a 402 stores nothing (sealed-request.ts).
          sealed: checked.issued,
        },
        checked.checkedAt,
      ),
    ),
  );

/** Ends the reservation of `lease`; a grant with `served` is credited only if this ends it. */
export const finishReservation = (
  store: Store,
  paymentId: string,
  lease: string,
  served: boolean,
  grant?: PaymentGrant,
) =>
  store.run(
    Effect.gen(function* () {
      const requests = yield* PaymentRequests;
      return yield* requests.finish(paymentId, lease, served, yield* Clock.currentTimeMillis, grant);
    }),
  );
