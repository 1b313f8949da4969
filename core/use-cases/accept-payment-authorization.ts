/**
 * An X-Payment-Authorization (already decoded, its ed25519 signature already checked at the
 * edge) becomes a consumed payment, or a rejection with its reason:
 *   1. the payment_id is one we issued (stored once claimed, else proven by its seal), for this
 *      resource and method, not used, not expired;
 *   2. the stated amount, recipient, mint and network are the issued ones;
 *   3. the transaction signature is unused (before any RPC call), and, when it is not the
 *      claim being retried, the chain lookup fits the budget (chain-lookup-budget.ts: per
 *      client, for everyone, and at most three distinct signatures per payment_id);
 *   4. with verification on: the transfer on chain passes the verifier of POST /api/payment
 *      with the issued price as the exact minimum, carries the memo `x402:<payment_id>`, and
 *      every transfer into the recipient was made by `public_key`;
 *   5. one atomic claim consumes the payment_id and the transaction (and credits a grant).
 * A transfer read on chain is the payer's however late it landed or is presented
 * (core/payments/late-transfer.ts): served or credited, or, where the route opted out, refused
 * naming the payment and listed for a refund by hand (core/payments/unattributed.ts).
 * Only the issued request and the chain decide amounts and addresses; the client's words
 * decide nothing.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { isLateTransfer, type LateTransferPolicy, lookupCounterUntil } from "../payments/late-transfer.ts";
import { BaseUnits } from "../payments/money.ts";
import { rejected } from "../payments/payment-rejected.ts";
import { type Offer, openSealedPayment } from "../payments/sealed-request.ts";
import { verifyTransfer } from "../payments/verify-transfer.ts";
import { walletAccount } from "../payments/wallet-credits.ts";
import { type PaymentAuthorization, X402_MEMO_PREFIX } from "../payments/x402.ts";
import { checkStatedTerms, checkTransferAuthority } from "../payments/x402-binding.ts";
import { checkUsable, type IssuedPayment, SETTLE_GRACE_MS } from "../payments/x402-ledger.ts";
import { ChainReader } from "../ports/chain-reader.ts";
import { PaymentRequests } from "../ports/payment-requests.ts";
import { PaymentStore } from "../ports/payment-store.ts";
import { RequestSeal } from "../ports/request-seal.ts";
import { UnattributedPayments } from "../ports/unattributed-payments.ts";
import type { QuotaView } from "../quota.ts";
import { reserveChainLookup } from "./reserve-chain-lookup.ts";

export interface AuthorizationAttempt {
  readonly authorization: PaymentAuthorization;
  /** The route's offer: its binding, price and recipient (a sealed payment_id is checked against it). */
  readonly offer: Offer;
  /** Who presents it: the chain lookups it causes count against this client's budget. */
  readonly client: string;
  /** Read the transfer on chain (the spec's AutoVerify). Off: everything else is still checked. */
  readonly verifyOnChain: boolean;
  /**
   * Credit the queries the transfer bought, in the claim (/api/chat): to the paying wallet
   * (`public_key`, whose authority over the transfer was checked on chain), or to this identity
   * when the transfer was not read.
   */
  readonly grantTo?: { readonly identity: string; readonly queriesFor: (received: bigint) => number };
  /**
   * What a transfer read on chain that landed or is presented past the request's graces gets:
   * served or credited ("serve"), or refused and listed for refund ("list"). Absent: refused as
   * expired, as a transfer not read on chain always is.
   */
  readonly lateTransfers?: LateTransferPolicy;
}

export interface AcceptedPayment {
  readonly issued: IssuedPayment;
  /** Base units the recipient received (the price when not verified on chain). */
  readonly received: bigint;
  readonly lease: string;
  readonly retry: boolean;
  readonly rateLimit: QuotaView | undefined;
  /** The wallet credited, when the grant went to one. */
  readonly payer: string | undefined;
}

/** Reads and verifies the transfer; its block time (ms) and the amount received. */
const verifyOnChain = Effect.fn("verifyX402Transfer")(function* (
  authorization: PaymentAuthorization,
  issued: IssuedPayment,
) {
  const chain = yield* ChainReader;
  const price = BaseUnits(issued.units);
  const lookup = yield* chain.lookup(authorization.transaction_hash);
  if (lookup.kind === "pending")
    return yield* Effect.fail(rejected("transaction-not-confirmed", { claimed: price }));
  const tx = lookup.kind === "found" ? lookup.transaction : undefined;
  const verified = verifyTransfer(tx, {
    usdcMint: issued.mint,
    wallet: issued.payTo,
    claimed: price,
    minimumReceived: price,
    now: yield* Clock.currentTimeMillis,
    memo: { prefix: X402_MEMO_PREFIX, expected: issued.paymentId, required: true },
  });
  if (Result.isFailure(verified)) return yield* Effect.fail(verified.failure);
  if (tx === undefined) return yield* Effect.die(new Error("a verified transfer has a transaction"));
  yield* Effect.fromResult(
    checkTransferAuthority(tx, {
      payTo: issued.payTo,
      mint: issued.mint,
      authority: authorization.public_key,
    }),
  );
  return { paidAt: verified.success.blockTime * 1000, received: verified.success.received };
});

/**
 * A route that serves no late transfer: one that landed or is presented past the graces is
 * listed for refund (once per signature) and refused naming it; a timely one goes on.
 */
const refuseLate = Effect.fn("refuseLateTransfer")(function* (
  attempt: AuthorizationAttempt,
  issued: IssuedPayment,
  paid: { readonly paidAt: number; readonly received: bigint },
) {
  const now = yield* Clock.currentTimeMillis;
  if (!isLateTransfer(issued, paid.paidAt) && now < issued.expiresAt + SETTLE_GRACE_MS) return;
  const signature = attempt.authorization.transaction_hash;
  const unattributed = yield* UnattributedPayments;
  yield* unattributed.record(
    {
      signature,
      payer: attempt.authorization.public_key,
      units: paid.received,
      at: paid.paidAt,
      reason: "late-refused",
      paymentId: issued.paymentId,
    },
    now,
  );
  return yield* Effect.fail(
    rejected("payment-late-listed", {
      claimed: BaseUnits(issued.units),
      received: paid.received,
      payment: { id: issued.paymentId, transaction: signature },
    }),
  );
});

export const acceptPaymentAuthorization = Effect.fn("acceptPaymentAuthorization")(function* (
  attempt: AuthorizationAttempt,
) {
  const { authorization, offer } = attempt;
  const { binding } = offer;
  const requests = yield* PaymentRequests;
  const payments = yield* PaymentStore;
  const seal = yield* RequestSeal;
  const signature = authorization.transaction_hash;
  const now = yield* Clock.currentTimeMillis;
  const stored = yield* requests.find(authorization.payment_id, now);
  // Nothing stored until a payment claims it: the id's own seal proves we issued it.
  const record =
    stored ??
    (yield* Effect.fromResult(
      Result.map(openSealedPayment(seal.mac, authorization.payment_id, offer), (issued) => ({
        issued,
        state: { kind: "open" } as const,
      })),
    ));
  // Past its grace a request is still ours to settle when the transfer will be read on chain.
  const readsLate = attempt.verifyOnChain && attempt.lateTransfers !== undefined;
  const { issued, retry } = yield* Effect.fromResult(checkUsable(record, binding, signature, now, readsLate));
  yield* Effect.fromResult(checkStatedTerms(authorization, issued));
  if (!retry && (yield* payments.isClaimed(signature, now)))
    return yield* Effect.fail(rejected("signature-already-used", { claimed: BaseUnits(issued.units) }));
  // A retry of this payment's own claim is read on chain again, so it costs a lookup too (the
  // same signature takes no new slot of the payment_id): resends of a payment whose handler
  // failed cannot call the RPC outside the budget.
  if (attempt.verifyOnChain)
    yield* reserveChainLookup(
      {
        client: attempt.client,
        signature,
        // The payment_id is usable, so its signatures counted, until its grace ends (or, read
        // late, a grace past this presentation).
        payment: { id: issued.paymentId, expiresAt: lookupCounterUntil(issued, now) },
      },
      BaseUnits(issued.units),
    );
  const paid = attempt.verifyOnChain
    ? yield* verifyOnChain(authorization, issued)
    : { paidAt: yield* Clock.currentTimeMillis, received: issued.units };
  if (readsLate && attempt.lateTransfers === "list" && !retry) yield* refuseLate(attempt, issued, paid);
  const grantTo = attempt.grantTo;
  const payer = grantTo !== undefined && attempt.verifyOnChain ? authorization.public_key : undefined;
  const account = payer === undefined ? grantTo?.identity : walletAccount(payer);
  const claimed = yield* requests.claim(
    {
      paymentId: issued.paymentId,
      binding,
      signature,
      paidAt: paid.paidAt,
      sealed: issued,
      ...(readsLate && attempt.lateTransfers === "serve" ? { acceptsLate: true } : {}),
      ...(grantTo === undefined
        ? {}
        : { grant: { identity: account ?? grantTo.identity, queries: grantTo.queriesFor(paid.received) } }),
    },
    yield* Clock.currentTimeMillis,
  );
  return { issued, received: paid.received, ...claimed, payer } satisfies AcceptedPayment;
});
