/**
 * A payment request that carries its own proof, so a 402 stores nothing. The payment_id is
 *
 *   pay_<random>_<expiresAt, base36>_<offer tag>_<mac>
 *
 * where the offer tag is the first 16 hex digits of HMAC("x402-offer", resource, method, price,
 * recipient, mint, network, description) and the mac the first 32 hex digits (128 bits) of
 * HMAC("x402-payment-id", random, expiresAt, offer tag). A valid mac proves we issued the id with
 * that expiry and that offer; the route it is presented to recomputes its own offer tag, so an
 * id issued for another route (or for terms changed since) is told apart from one never issued.
 * The store learns of an id only when a payment claims it (core/payments/x402-ledger.ts), and
 * keeps it at least until its request expires, so it is never paid twice. About 80 characters,
 * inside the spec dialect's `[A-Za-z0-9_-]{8,128}`. The 402's `nonce` is derived from the id.
 */
import * as Result from "effect/Result";
import type { X402Network } from "./network.ts";
import { type PaymentRejected, rejected } from "./payment-rejected.ts";
import type { Binding, IssuedPayment } from "./x402-ledger.ts";

/** HMAC under the shared key (the RequestSeal port), as hex. */
export type Mac = (purpose: string, message: string) => string;

export const SEALED_PAYMENT_PREFIX = "pay_";
const OFFER_TAG_HEX = 16;
const MAC_HEX = 32;
const NONCE_HEX = 32;

/** What a route offers: everything of an issued request but its id, nonce and expiry. */
export interface Offer {
  readonly binding: Binding;
  readonly units: bigint;
  readonly payTo: string;
  readonly mint: string;
  readonly network: X402Network;
  readonly description: string;
}

const offerTag = (mac: Mac, offer: Offer): string =>
  mac(
    "x402-offer",
    [
      offer.binding.resource,
      offer.binding.method,
      offer.units.toString(),
      offer.payTo,
      offer.mint,
      offer.network,
      offer.description,
    ].join("\n"),
  ).slice(0, OFFER_TAG_HEX);

const idMac = (mac: Mac, random: string, expiresAt: number, tag: string): string =>
  mac("x402-payment-id", `${random}\n${expiresAt}\n${tag}`).slice(0, MAC_HEX);

const issuedOf = (mac: Mac, paymentId: string, offer: Offer, expiresAt: number): IssuedPayment => ({
  paymentId,
  nonce: mac("x402-nonce", paymentId).slice(0, NONCE_HEX),
  resource: offer.binding.resource,
  method: offer.binding.method,
  units: offer.units,
  payTo: offer.payTo,
  mint: offer.mint,
  network: offer.network,
  expiresAt,
  description: offer.description,
});

/** A sealed request for `offer`; `random` is base58 from a CSPRNG (it keeps two ids apart). */
export const sealPayment = (mac: Mac, offer: Offer, random: string, expiresAt: number): IssuedPayment => {
  const tag = offerTag(mac, offer);
  const paymentId = `${SEALED_PAYMENT_PREFIX}${random}_${expiresAt.toString(36)}_${tag}_${idMac(mac, random, expiresAt, tag)}`;
  return issuedOf(mac, paymentId, offer, expiresAt);
};

const SEALED_ID = /^pay_([1-9A-HJ-NP-Za-km-z]{8,32})_([0-9a-z]{1,12})_([0-9a-f]{16})_([0-9a-f]{32})$/;

/** Constant-time in the mac's length: the comparison tells an attacker nothing about a near miss. */
const sameHex = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
};

/** Whether we issued this payment_id (its mac holds), whatever route or terms it was for. */
export const isSealedPaymentId = (mac: Mac, paymentId: string): boolean => {
  const parts = SEALED_ID.exec(paymentId);
  if (parts === null) return false;
  const [, random = "", expiry = "", tag = "", proof = ""] = parts;
  const expiresAt = Number.parseInt(expiry, 36);
  return Number.isSafeInteger(expiresAt) && sameHex(idMac(mac, random, expiresAt, tag), proof);
};

/**
 * The request a sealed id stands for on the route offering `offer`: "payment-unknown" when we
 * did not issue it (or it is not sealed), "payment-other-resource" when we issued it for another
 * route or other terms. Expiry is the ledger's rule (checkUsable), not this one's.
 */
export const openSealedPayment = (
  mac: Mac,
  paymentId: string,
  offer: Offer,
): Result.Result<IssuedPayment, PaymentRejected> => {
  const parts = SEALED_ID.exec(paymentId);
  if (parts === null) return Result.fail(rejected("payment-unknown"));
  const [, random = "", expiry = "", tag = "", proof = ""] = parts;
  const expiresAt = Number.parseInt(expiry, 36);
  if (!Number.isSafeInteger(expiresAt) || !sameHex(idMac(mac, random, expiresAt, tag), proof))
    return Result.fail(rejected("payment-unknown"));
  if (!sameHex(offerTag(mac, offer), tag)) return Result.fail(rejected("payment-other-resource"));
  return Result.succeed(issuedOf(mac, paymentId, offer, expiresAt));
};
