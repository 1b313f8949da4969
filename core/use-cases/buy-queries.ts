/**
 * POST /api/payment as a use case: validate the claim, refuse known signatures before any
 * RPC call, spend one chain lookup of the client's budget (chain-lookup-budget.ts), read the transaction, verify it (pure), then claim atomically (signature used +
 * credits granted together). The credits go to the wallet that paid (the sole authority of the
 * transfers into the service wallet); a transfer with no single authority (a multisig, or
 * transfers by several wallets) credits the client identity as before, so nothing paid is lost.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import * as Result from "effect/Result";
import { callerReference } from "../payments/memo-reference.ts";
import { memosOf, type ParsedTransaction } from "../payments/parsed-transaction.ts";
import type { PaymentClaim, RawClaim } from "../payments/payment-claim.ts";
import { validateClaim } from "../payments/payment-claim.ts";
import { type PaymentRejected, rejected } from "../payments/payment-rejected.ts";
import { memosFor, PaymentSettings } from "../payments/payment-settings.ts";
import { isSealedPaymentId } from "../payments/sealed-request.ts";
import { carriesNoMemoOfOurs } from "../payments/unattributed.ts";
import { verifyTransfer } from "../payments/verify-transfer.ts";
import { walletAccount } from "../payments/wallet-credits.ts";
import { X402_MEMO_PREFIX } from "../payments/x402.ts";
import { soleTransferAuthority } from "../payments/x402-binding.ts";
import { ChainReader } from "../ports/chain-reader.ts";
import { PaymentStore } from "../ports/payment-store.ts";
import { RequestSeal } from "../ports/request-seal.ts";
import { TransferAttribution } from "../ports/transfer-attribution.ts";
import { UnattributedPayments } from "../ports/unattributed-payments.ts";
import type { QuotaView } from "../quota.ts";
import { reserveChainLookup } from "./reserve-chain-lookup.ts";

export interface QueriesBought {
  readonly claim: PaymentClaim;
  readonly received: bigint;
  /** The store's view of the account credited (the wallet's, or the identity's). */
  readonly rateLimit: QuotaView;
  /** The wallet credited; undefined when the identity was. */
  readonly payer: string | undefined;
  /**
   * The transfer carries the memo reference issued to this client: it was made for this client,
   * so its payer's wallet is credited and a browser session for it may be handed to the client.
   */
  readonly madeForClient: boolean;
}

/**
 * A transfer to our wallet refused for carrying no memo of ours is nobody's to claim: listed for
 * the owner to refund (core/payments/unattributed.ts). Its lookup was already admitted by the
 * budget; listing it reads nothing more from the chain. With several sites (TransferAttribution)
 * "ours" is any site's, and the list is the wallet owner's: listed once in the whole service.
 */
const listIfUnattributed = Effect.fn("listIfUnattributed")(function* (
  signature: string,
  transaction: ParsedTransaction,
  failure: PaymentRejected,
) {
  const seal = yield* RequestSeal;
  const sites = yield* Effect.serviceOption(TransferAttribution);
  const memos = memosOf(transaction).map((memo) => memo.trim());
  const ours = (paymentId: string) =>
    isSealedPaymentId(seal.mac, paymentId) ||
    (Option.isSome(sites) && sites.value.sealedByAnySite(paymentId));
  if (
    failure.received === undefined ||
    transaction.blockTime === null ||
    !carriesNoMemoOfOurs(failure.reason, memos, ours)
  )
    return;
  const settings = yield* PaymentSettings;
  const entry = {
    signature,
    payer: soleTransferAuthority(transaction, { payTo: settings.wallet, mint: settings.usdcMint }) ?? "",
    units: failure.received,
    at: transaction.blockTime * 1000,
    reason: "memo-not-ours" as const,
    paymentId: "",
  };
  const now = yield* Clock.currentTimeMillis;
  if (Option.isSome(sites)) return yield* sites.value.listUnattributed(settings.wallet, entry, now);
  const unattributed = yield* UnattributedPayments;
  yield* unattributed.record(entry, now);
});

export const buyQueries = Effect.fn("buyQueries")(function* (identity: string, raw: RawClaim) {
  const settings = yield* PaymentSettings;
  const claim = yield* Effect.fromResult(validateClaim(raw, settings.unitsPerQuery));
  const alreadyUsed = rejected("signature-already-used", { claimed: claim.units });
  const store = yield* PaymentStore;
  const chain = yield* ChainReader;
  if (yield* store.isClaimed(claim.signature, yield* Clock.currentTimeMillis))
    return yield* Effect.fail(alreadyUsed);
  yield* reserveChainLookup({ client: identity, signature: claim.signature }, claim.units);
  const lookup = yield* chain.lookup(claim.signature);
  if (lookup.kind === "pending")
    return yield* Effect.fail(rejected("transaction-not-confirmed", { claimed: claim.units }));
  const now = yield* Clock.currentTimeMillis;
  const reference = yield* callerReference(identity);
  const legacy = yield* store.legacyReference(identity);
  const verified = verifyTransfer(lookup.kind === "found" ? lookup.transaction : undefined, {
    usdcMint: settings.usdcMint,
    wallet: settings.wallet,
    claimed: claim.units,
    now,
    memo: {
      prefix: settings.memoPrefix,
      expected: reference,
      legacy,
      required: settings.memoRequired,
      reserved: [X402_MEMO_PREFIX],
    },
    notBefore: settings.notBefore,
  });
  const transaction = lookup.kind === "found" ? lookup.transaction : undefined;
  if (Result.isFailure(verified)) {
    if (transaction !== undefined) yield* listIfUnattributed(claim.signature, transaction, verified.failure);
    return yield* Effect.fail(verified.failure);
  }
  if (transaction === undefined) return yield* Effect.die(new Error("a verified transfer has a transaction"));
  const payer = soleTransferAuthority(transaction, { payTo: settings.wallet, mint: settings.usdcMint });
  const ours = [reference, ...(legacy === undefined ? [] : [legacy])].flatMap((ref) =>
    memosFor(settings.memoPrefix, ref),
  );
  const madeForClient = memosOf(transaction).some((memo) => ours.includes(memo.trim()));
  // Anyone can submit a signature seen on chain. A transfer without this client's memo credits
  // the identity that presents it (as the spec's POST /api/payment does), never the payer's
  // wallet: crediting the wallet would link the submitter to it, and so to its whole balance.
  const owner = madeForClient ? payer : undefined;
  const account = owner === undefined ? identity : walletAccount(owner);
  const rateLimit = yield* store
    .claim(claim.signature, account, claim.queries, yield* Clock.currentTimeMillis)
    .pipe(Effect.catchTag("AlreadyClaimed", () => Effect.fail(alreadyUsed)));
  return {
    claim,
    received: verified.success.received,
    rateLimit,
    payer: owner,
    madeForClient,
  } satisfies QueriesBought;
});
