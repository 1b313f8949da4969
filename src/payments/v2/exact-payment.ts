/**
 * A PAYMENT-SIGNATURE checked end to end, nothing moved yet: the payload decoded, the
 * transaction's shape and client signatures (exact-transaction.ts), its memo naming a payment
 * request we issued for this resource and method, unused and unexpired, the transfer exactly
 * that request's price, mint and recipient, then co-signed by our fee payer. The caller holds
 * the payer (settlement-guard.ts) and only then simulates it (`simulateHeld`), against the
 * freshest state, claims it in the shared store (paywall: before the handler) and submits it.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { formatUnits } from "../../../core/payments/money.ts";
import { type PaymentRejected, rejected } from "../../../core/payments/payment-rejected.ts";
import { type Offer, openSealedPayment } from "../../../core/payments/sealed-request.ts";
import { type PayerHold, settlementKeysOf } from "../../../core/payments/settlement-locks.ts";
import { X402_MEMO_PREFIX } from "../../../core/payments/x402.ts";
import {
  type Binding,
  checkUsable,
  type IssuedPayment,
  isHeldBy,
  type PaymentRecord,
  SETTLE_GRACE_MS,
  standingOf,
} from "../../../core/payments/x402-ledger.ts";
import type { PaymentReceipt } from "../../../core/payments/x402-receipt.ts";
import type { ChainUnavailable } from "../../../core/ports/chain-reader.ts";
import { PaymentRequests } from "../../../core/ports/payment-requests.ts";
import { RequestSeal } from "../../../core/ports/request-seal.ts";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { reserveChainLookup } from "../../../core/use-cases/reserve-chain-lookup.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import type { RunPayment } from "../server/dialect.ts";
import { checkExactTransaction, checkTransfer } from "./exact-transaction.ts";
import type { X402Extensions } from "./extensions-hook.ts";
import type { CoSigned, FeePayer } from "./fee-payer.ts";
import type { SponsorPolicy } from "./sponsor-policy.ts";
import type { SponsorWatch } from "./sponsor-watch.ts";
import { exactTransactionOf, type SolanaNetworkId } from "./wire.ts";

const USDC_DECIMALS = 6;

export interface ExactFacilitator {
  readonly feePayer: FeePayer;
  /** CAIP-2 id of the chain (solana:<genesis hash prefix>). */
  readonly network: SolanaNetworkId;
  /** What the fee payer signs for (sponsor-policy.ts). */
  readonly policy: SponsorPolicy;
  /** Its SOL, watched: x402 v2 is offered only while it is above the floor. */
  readonly sponsor: SponsorWatch;
  /** Whether a payment must name itself with a payment identifier (400 without); default false. */
  readonly paymentIdRequired?: boolean;
  /** What its 402s and settlements carry beside the terms (bazaar, signed offers and receipts). */
  readonly extensions?: X402Extensions | undefined;
  /** The hourly budget of lamports lost to failed settlements (sponsor-brakes.ts), and its refusals counted. */
  readonly losses?: {
    readonly budgetLamportsPerHour: number;
    readonly onRefused?: (reason: string) => void;
  };
}

export interface CheckedPayment {
  readonly issued: IssuedPayment;
  readonly cosigned: CoSigned;
  readonly payer: string;
  /** The payer's settlement locks (its wallet and source token account), held by this transaction. */
  readonly hold: PayerHold;
  /** What the fee payer pays for the transaction, in lamports (within the sponsor policy). */
  readonly fee: bigint;
  /** The same transaction presented again: after a failed handler or settlement, or while it holds the claim. */
  readonly retry: boolean;
  /** When it was verified (epoch ms): the claim's `paidAt`. */
  readonly checkedAt: number;
}

export type ExactRefusal = PaymentRejected | StoreUnavailable | ChainUnavailable;

const fail = (reason: PaymentRejected["reason"]): Outcome<never, ExactRefusal> => ({
  ok: false,
  error: rejected(reason),
});

/**
 * The payment_id the transaction's one memo names (our offer's `extra.memo`), or why the memos
 * bind nothing: the scheme wants exactly one memo equal to extra.memo.
 */
const paymentIdOf = (memos: ReadonlyArray<string>): Result.Result<string, PaymentRejected> => {
  const [memo] = memos;
  if (memo === undefined) return Result.fail(rejected("memo-required"));
  if (memos.length > 1) return Result.fail(rejected("memo-mismatch"));
  return memo.startsWith(X402_MEMO_PREFIX)
    ? Result.succeed(memo.slice(X402_MEMO_PREFIX.length))
    : Result.fail(rejected("memo-mismatch"));
};

/** The stored record of a payment_id and the time it was read at. */
export const findRecord = (paymentId: string) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis;
    const record = yield* Effect.flatMap(PaymentRequests, (requests) => requests.find(paymentId, now));
    return { record, now };
  });

/**
 * The record of a payment_id presented to the route offering `offer`: the stored one once a
 * payment claimed it, else the sealed request it proves (open), else why it is none of ours.
 */
export const findOffered = (paymentId: string, offer: Offer) =>
  Effect.gen(function* () {
    const { record, now } = yield* findRecord(paymentId);
    if (record !== undefined) return { record, now };
    const seal = yield* RequestSeal;
    const sealed = yield* Effect.fromResult(openSealedPayment(seal.mac, paymentId, offer));
    const open: PaymentRecord = { issued: sealed, state: { kind: "open" } };
    return { record: open, now };
  });

/**
 * Issued, for this resource and method, and not yet used by another transaction (or expired).
 * A request this very transaction holds under a live lease passes as a retry (not simulated
 * again: it may have landed): the store's atomic claim refuses it, and the caller can tell the
 * client to wait rather than to pay again.
 */
const checkRequest = (
  found: { readonly record: PaymentRecord | undefined; readonly now: number },
  binding: Binding,
  signature: string,
): Result.Result<{ readonly issued: IssuedPayment; readonly retry: boolean }, PaymentRejected> => {
  const { record, now } = found;
  if (record !== undefined && isHeldBy(record, signature, now))
    return Result.succeed({ issued: record.issued, retry: true });
  return Result.flatMap(checkUsable(record, binding, signature, now), (usable) =>
    !usable.retry && now > usable.issued.expiresAt
      ? Result.fail(rejected("payment-expired"))
      : Result.succeed(usable),
  );
};

export const checkExactPayment = async (
  header: string,
  offer: Offer,
  facilitator: ExactFacilitator,
  run: RunPayment,
  /** Who presents it: the simulation it will cost counts against this client's lookup budget. */
  client: string,
): Promise<Outcome<CheckedPayment, ExactRefusal>> => {
  const base64 = exactTransactionOf(header, facilitator.network);
  if (base64 === undefined) return fail("exact-payload-malformed");
  const shaped = await checkExactTransaction(base64, facilitator.feePayer.address, facilitator.policy);
  if (Result.isFailure(shaped)) return { ok: false, error: shaped.failure };
  const { transaction, transfer, memos, sponsorFee } = shaped.success;
  const paymentId = paymentIdOf(memos);
  if (Result.isFailure(paymentId)) return { ok: false, error: paymentId.failure };
  const found = await run(findOffered(paymentId.success, offer));
  if (!found.ok) return found;
  const { record, now } = found.value;
  const { binding } = offer;
  if (record.issued.resource !== binding.resource || record.issued.method !== binding.method)
    return fail("payment-other-resource");
  const { issued } = record;
  const terms = { units: issued.units, mint: issued.mint, payTo: issued.payTo, decimals: USDC_DECIMALS };
  const matches = await checkTransfer(transfer, terms);
  if (Result.isFailure(matches)) return { ok: false, error: matches.failure };
  // Only a transaction that passed every check above is signed (locally; nothing is sent).
  const cosigned = await facilitator.feePayer.cosign(transaction);
  const usable = checkRequest(found.value, binding, cosigned.signature);
  if (Result.isFailure(usable)) return { ok: false, error: usable.failure };
  const { retry } = usable.success;
  // The simulation to come is an RPC call on the operator's plan, as a signature lookup is: the
  // same budget (core/payments/chain-lookup-budget.ts), spent before it. A retry of this very
  // transaction is not simulated again but its status is read, so it takes one too (the same
  // signature takes no new slot of the payment_id): resends cannot call the RPC outside the budget.
  {
    const reserved = await run(
      reserveChainLookup(
        {
          client,
          signature: cosigned.signature,
          payment: { id: issued.paymentId, expiresAt: issued.expiresAt + SETTLE_GRACE_MS },
        },
        issued.units,
      ),
    );
    if (!reserved.ok) return reserved;
  }
  // Held by the transaction: a twin request with the same payload hears "in progress".
  const hold = { keys: settlementKeysOf(transfer), holder: cosigned.signature };
  return {
    ok: true,
    value: { issued, cosigned, payer: transfer.authority, hold, fee: sponsorFee, retry, checkedAt: now },
  };
};

/**
 * Where `signature` stands with the payment request now (read again; "other" when the store
 * cannot say): whether a concurrent request holds it for this very transaction.
 */
export const standingNow = async (run: RunPayment, paymentId: string, signature: string) => {
  const found = await run(findRecord(paymentId));
  return found.ok ? standingOf(found.value.record, signature) : "other";
};

/**
 * A failed simulation of a transaction that a concurrent request with the same payload claimed
 * meanwhile, and sent (it cannot run twice), is no failure of this payment: while that claim
 * is pending the client hears "in progress" (send the same payload again; never pay anew), and
 * once it is served "already used".
 */
const alreadyClaimed = async (
  run: RunPayment,
  paymentId: string,
  signature: string,
  failed: Outcome<never, ExactRefusal>,
): Promise<Outcome<never, ExactRefusal>> => {
  const standing = await standingNow(run, paymentId, signature);
  if (standing === "other") return failed;
  return fail(standing === "served" ? "payment-already-used" : "exact-payment-in-progress");
};

/**
 * Simulates a checked payment while its payer is held: no other settlement of this payer is in
 * flight, so a balance another transaction spent is seen spent. A retry's transaction passed
 * simulation before and may have landed since (then it would fail): not simulated again.
 */
export const simulateHeld = async (
  run: RunPayment,
  facilitator: ExactFacilitator,
  payment: CheckedPayment,
): Promise<Outcome<void, ExactRefusal>> => {
  if (payment.retry) return { ok: true, value: undefined };
  const simulated = await simulateCosigned(facilitator, payment.cosigned);
  return simulated.ok
    ? simulated
    : alreadyClaimed(run, payment.issued.paymentId, payment.cosigned.signature, simulated);
};

/** The co-signed transaction run in simulation: it must succeed on a recent blockhash. */
export const simulateCosigned = async (
  facilitator: ExactFacilitator,
  cosigned: CoSigned,
): Promise<Outcome<void, ExactRefusal>> => {
  const simulated = await facilitator.feePayer.simulate(cosigned).then(
    (outcome) => ({ ok: true as const, outcome }),
    (error: ChainUnavailable) => ({ ok: false as const, error }),
  );
  if (!simulated.ok) return simulated;
  if (simulated.outcome === "blockhash-expired") return fail("exact-blockhash-expired");
  if (simulated.outcome === "failed") return fail("exact-simulation-failed");
  return { ok: true, value: undefined };
};

/** The receipt of a checked payment (X-Payment-Receipt's shape, for handlers and insights). */
export const exactReceipt = (checked: CheckedPayment): PaymentReceipt => ({
  payment_id: checked.issued.paymentId,
  transaction_hash: checked.cosigned.signature,
  network: checked.issued.network,
  amount: formatUnits(checked.issued.units),
  payer: checked.payer,
  resource: checked.issued.resource,
});
