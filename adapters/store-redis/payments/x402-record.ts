/**
 * An issued x402 payment request as a Redis hash (layout: x402-lua.ts) and back. Decoding is
 * strict: a hash our code did not write is refused (StoreUnavailable), never guessed at. A
 * record past its forgetAt is no record, exactly as the scripts and the memory store see it.
 */
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { Network } from "../../../core/payments/x402.ts";
import {
  forgetAt,
  type IssuedPayment,
  isForgotten,
  type PaymentRecord,
  type PaymentState,
} from "../../../core/payments/x402-ledger.ts";

const Digits = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{1,30}$/)));

const StoredPayment = Schema.Struct({
  nonce: Schema.String,
  resource: Schema.String,
  method: Schema.String,
  units: Digits,
  payTo: Schema.String,
  mint: Schema.String,
  network: Network,
  expiresAt: Digits,
  description: Schema.String,
  state: Schema.Literals(["open", "claimed", "unserved", "served"]),
  signature: Schema.optional(Schema.String),
  lease: Schema.optional(Schema.String),
  leaseUntil: Schema.optional(Digits),
  // Optional: records written before it existed live by their TTL alone.
  forgetAt: Schema.optional(Digits),
});
const decodeStored = Schema.decodeUnknownOption(StoredPayment, { onExcessProperty: "error" });

/** The fields `issue` writes (state open). */
export const issuedFields = (issued: IssuedPayment, now: number): Record<string, string> => ({
  nonce: issued.nonce,
  resource: issued.resource,
  method: issued.method,
  units: issued.units.toString(),
  payTo: issued.payTo,
  mint: issued.mint,
  network: issued.network,
  expiresAt: String(issued.expiresAt),
  description: issued.description,
  state: "open",
  forgetAt: String(forgetAt({ issued, state: { kind: "open" } }, now)),
});

const stateOf = (stored: typeof StoredPayment.Type): PaymentState | undefined => {
  const { state, signature, lease, leaseUntil } = stored;
  if (state === "open") return { kind: "open" };
  if (signature === undefined) return undefined;
  if (state !== "claimed") return { kind: state, signature };
  return lease === undefined || leaseUntil === undefined
    ? undefined
    : { kind: "claimed", signature, lease, leaseUntil: Number(leaseUntil) };
};

/**
 * The record in `hash` (an HGETALL reply) at `now`: undefined when there is none or it is
 * forgotten, "corrupt" when it is not one we wrote.
 */
export const decodePaymentHash = (
  paymentId: string,
  hash: Readonly<Record<string, string>>,
  now: number,
): PaymentRecord | undefined | "corrupt" => {
  if (Object.keys(hash).length === 0) return undefined;
  const stored = decodeStored(hash);
  if (Option.isNone(stored)) return "corrupt";
  const state = stateOf(stored.value);
  if (state === undefined) return "corrupt";
  if (stored.value.forgetAt !== undefined && isForgotten(Number(stored.value.forgetAt), now))
    return undefined;
  const { nonce, resource, method, units, payTo, mint, network, expiresAt, description } = stored.value;
  const issued: IssuedPayment = {
    paymentId,
    nonce,
    resource,
    method,
    units: BigInt(units),
    payTo,
    mint,
    network,
    expiresAt: Number(expiresAt),
    description,
  };
  return { issued, state };
};
