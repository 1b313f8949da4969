/**
 * The write-ahead side of a sponsored settlement (core/payments/pending-settlement.ts): recorded
 * as pending just before its transaction is sent, closed by whoever learns and acts on its
 * outcome (the request that sent it, a retry, the reconciler).
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import type { PendingKind, PendingSettlement } from "../../../core/payments/pending-settlement.ts";
import { PendingSettlements } from "../../../core/ports/pending-settlements.ts";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import type { CoSigned } from "./fee-payer.ts";

export type RunPending = <A, E>(effect: Effect.Effect<A, E, PendingSettlements>) => Promise<Outcome<A, E>>;

export interface PendingOf {
  readonly kind: PendingKind;
  readonly cosigned: CoSigned;
  readonly payer: string;
  readonly paymentId?: string;
  readonly lease?: string;
  readonly binding?: { readonly resource: string; readonly method: string };
  readonly grant?: { readonly identity: string; readonly queries: number };
}

/** Records the settlement as pending before it is sent: false when the store refuses (then nothing is sent). */
export const recordPendingSettlement = async (
  run: RunPending,
  of: PendingOf,
): Promise<Outcome<boolean, StoreUnavailable>> =>
  run(
    Effect.gen(function* () {
      const entry: PendingSettlement = {
        signature: of.cosigned.signature,
        kind: of.kind,
        paymentId: of.paymentId ?? "",
        // The facilitator's entries have no claim: the transaction's own id names them.
        lease: of.lease ?? of.cosigned.signature,
        resource: of.binding?.resource ?? "",
        method: of.binding?.method ?? "",
        identity: of.grant?.identity ?? "",
        queries: of.grant?.queries ?? 0,
        payer: of.payer,
        blockhash: of.cosigned.blockhash,
        since: yield* Clock.currentTimeMillis,
      };
      return yield* Effect.flatMap(PendingSettlements, (pending) => pending.record(entry));
    }),
  );

/** Closes the entry `lease` recorded; true when this call closed it. A store failure leaves it to the reconciler. */
export const closePendingSettlement = async (
  run: RunPending,
  signature: string,
  lease: string,
): Promise<boolean> => {
  const closed = await run(Effect.flatMap(PendingSettlements, (pending) => pending.close(signature, lease)));
  return closed.ok && closed.value;
};
