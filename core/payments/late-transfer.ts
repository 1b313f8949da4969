/**
 * A transfer that lands late is served or credited, never kept.
 *
 * Rule: a transfer read on chain, to our wallet, with the memo `x402:<payment_id>` of a request
 * we sealed, of at least the price, by the authorization's key, is the payer's money for that
 * request however late it landed (after `expires_at` + LATE_TRANSFER_GRACE_MS) or is presented
 * (after `expires_at` + SETTLE_GRACE_MS):
 *   - /api/chat credits it to the paying wallet as questions at the published rate and answers;
 *   - a paywalled route serves it ("serve", the default): the request's expiry protected the
 *     price (the offer tag in the seal binds price, recipient and route), and it was paid in full;
 *   - a route that opted out ("list") refuses it naming the payment and lists it among the
 *     unattributed payments for the owner to refund by hand (core/payments/unattributed.ts).
 * A transfer not read on chain (AutoVerify off) is judged by the two graces as before: nothing
 * proves money moved, so nothing is owed.
 *
 * Arithmetic: one transaction pays once (the signature ledger remembers it 30 days, and the
 * verifier refuses older transactions), so a late claim is one more claim of a real transfer;
 * it costs a chain lookup like any other, inside the same budget (chain-lookup-budget.ts). Past
 * the request's grace the payment_id's counter lives until `now` + SETTLE_GRACE_MS, so its
 * per-payment ceiling (3 signatures) still holds while anyone can present it.
 *
 * Why: third-party clients keep no 30 s margin; before this, their transfers landing past the
 * grace were refused PAYMENT_EXPIRED and the USDC stayed with the operator.
 */
import { type IssuedPayment, LATE_TRANSFER_GRACE_MS, SETTLE_GRACE_MS } from "./x402-ledger.ts";

/** What a paywalled route does with a late transfer: serve it, or refuse it and list it for refund. */
export const LATE_TRANSFER_POLICIES = ["serve", "list"] as const;
export type LateTransferPolicy = (typeof LATE_TRANSFER_POLICIES)[number];
export const DEFAULT_LATE_TRANSFER_POLICY: LateTransferPolicy = "serve";

/** Whether a transfer at `paidAt` (block time, ms) landed after its request's late grace. */
export const isLateTransfer = (issued: IssuedPayment, paidAt: number): boolean =>
  paidAt > issued.expiresAt + LATE_TRANSFER_GRACE_MS;

/** Until when the payment_id's lookup counter must live: its grace, or a late presentation's. */
export const lookupCounterUntil = (issued: IssuedPayment, now: number): number =>
  Math.max(issued.expiresAt + SETTLE_GRACE_MS, now + SETTLE_GRACE_MS);
