/**
 * POST /api/payment as a use case: validate the claim, refuse known signatures before any
 * RPC call, read the transaction, verify it (pure), then claim atomically (signature used +
 * credits granted together).
 */
import { Clock, Effect, Result } from "effect";
import type { PaymentClaim, RawClaim } from "../payments/payment-claim.ts";
import { validateClaim } from "../payments/payment-claim.ts";
import { rejected } from "../payments/payment-rejected.ts";
import { PaymentSettings } from "../payments/payment-settings.ts";
import { verifyTransfer } from "../payments/verify-transfer.ts";
import { X402_MEMO_PREFIX } from "../payments/x402.ts";
import { ChainReader } from "../ports/chain-reader.ts";
import { PaymentStore } from "../ports/payment-store.ts";
import type { QuotaView } from "../quota.ts";

export interface QueriesBought {
  readonly claim: PaymentClaim;
  readonly received: bigint;
  readonly rateLimit: QuotaView;
}

export const buyQueries = Effect.fn("buyQueries")(function* (identity: string, raw: RawClaim) {
  const claim = yield* Effect.fromResult(validateClaim(raw));
  const alreadyUsed = rejected("signature-already-used", { claimed: claim.units });
  const settings = yield* PaymentSettings;
  const store = yield* PaymentStore;
  const chain = yield* ChainReader;
  if (yield* store.isClaimed(claim.signature, yield* Clock.currentTimeMillis))
    return yield* Effect.fail(alreadyUsed);
  const lookup = yield* chain.lookup(claim.signature);
  if (lookup.kind === "pending")
    return yield* Effect.fail(rejected("transaction-not-confirmed", { claimed: claim.units }));
  const now = yield* Clock.currentTimeMillis;
  const reference = yield* store.referenceFor(identity, now);
  const verified = verifyTransfer(lookup.kind === "found" ? lookup.transaction : undefined, {
    usdcMint: settings.usdcMint,
    wallet: settings.wallet,
    claimed: claim.units,
    now,
    memo: {
      prefix: settings.memoPrefix,
      expected: reference,
      required: settings.memoRequired,
      reserved: [X402_MEMO_PREFIX],
    },
    notBefore: settings.notBefore,
  });
  if (Result.isFailure(verified)) return yield* Effect.fail(verified.failure);
  const rateLimit = yield* store
    .claim(claim.signature, identity, claim.queries, yield* Clock.currentTimeMillis)
    .pipe(Effect.catchTag("AlreadyClaimed", () => Effect.fail(alreadyUsed)));
  return { claim, received: verified.success.received, rateLimit } satisfies QueriesBought;
});
