/**
 * One used-signature ledger for every site a transfer could pay. A hosted site's store keeps its
 * own ledger, but sites may be paid to one wallet (a site without a `wallet` of its own takes the
 * service's, which the default site is paid to; two sites may name the same one). A transfer
 * posted without a memo (PAYMENT_MEMO_REQUIRED off, the default) then verifies on each of them,
 * and claimed once per site it would buy questions on every site for one payment.
 *
 * The rule: a transaction signature pays one site, once. A hosted site's claim first marks the
 * signature in the service's ledger (the default site's store: one for every instance on Redis),
 * then claims it in its own store, atomically with the credit as before. The default site's
 * own claims write that ledger directly, so a signature claimed anywhere is refused everywhere.
 *
 * Why in this order: marking first can never credit twice; the reverse could. What it can cost:
 * a store failure between the two steps leaves a signature marked and not credited (the payer
 * asks the owner, as for any transfer we could not attribute); both steps are on one Redis, so
 * the second rarely fails alone. The payment-request paths (x402, MCP) need no such mark: their
 * transfer carries a memo naming one site's payment_id, which no other site issued.
 */
import { Effect } from "effect";
import type { PaymentStore } from "../../core/ports/payment-store.ts";

type Ledger = PaymentStore["Service"];

/** Who the service's ledger records for a signature a hosted site claimed. */
export const claimedOnSite = (site: string, identity: string) => `site:${site}:${identity}`;

/** `own` (a hosted site's payment store) with every claim first marked in the service's `ledger`. */
export const sharedSignatureLedger = (site: string, own: Ledger, ledger: Ledger): Ledger => ({
  durable: own.durable && ledger.durable,
  isClaimed: (signature, now) =>
    Effect.zipWith(own.isClaimed(signature, now), ledger.isClaimed(signature, now), (a, b) => a || b),
  claim: (signature, identity, queries, now) =>
    ledger
      .markUsed(signature, claimedOnSite(site, identity), now)
      .pipe(Effect.andThen(own.claim(signature, identity, queries, now))),
  markUsed: (signature, usedBy, now) =>
    ledger
      .markUsed(signature, claimedOnSite(site, usedBy), now)
      .pipe(Effect.andThen(own.markUsed(signature, usedBy, now))),
  referenceFor: own.referenceFor,
});
