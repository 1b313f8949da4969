/**
 * What the service takes payments with: the chain, mint and wallet, the memo rules, and whether
 * used signatures outlive a restart. The layer reads durability from the PaymentStore it is
 * built on, so no other place decides "volatile store" for the verifier.
 */
import * as Clock from "effect/Clock";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { PaymentStore } from "../ports/payment-store.ts";
import { CHAIN_NETWORKS } from "./network.ts";
import { DEFAULT_UNITS_PER_QUERY } from "./question-price.ts";

/** The public terms of payment: everything a client needs to pay, nothing secret. */
export const PaymentTerms = Schema.Struct({
  network: Schema.Literals(CHAIN_NETWORKS),
  usdcMint: Schema.String,
  wallet: Schema.String,
  /** Our memos are `<memoPrefix><reference>`; other memos on a transfer are ignored. */
  memoPrefix: Schema.String,
  memoRequired: Schema.Boolean,
  /** Paid queries a client can spend per UTC day. */
  paidDailyCap: Schema.Number,
  /** The price of one question in USDC base units (question-price.ts): exact, never a float. */
  unitsPerQuery: Schema.BigInt,
});
export type PaymentTerms = typeof PaymentTerms.Type;

export class PaymentSettings extends Context.Service<
  PaymentSettings,
  PaymentTerms & {
    /**
     * Epoch ms before which transfers are refused: set when used signatures are kept only in
     * memory, since after a restart the ledger is empty and older transfers could be claimed
     * again. Undefined with a durable store.
     */
    readonly notBefore: number | undefined;
  }
>()("core/PaymentSettings") {}

/** Memos of ours look like `docschat:<reference>`. */
export const MEMO_PREFIX = "docschat:";

/**
 * The settings over the store they verify against. A volatile store's ledger starts when the
 * store was built, `ledgerStart`, or now when the caller built it with these settings: a store
 * that outlives its settings (a hosted site's, rebuilt on every edit of the site) must keep its
 * start, or an edit would refuse the transfers made before it. The price defaults to
 * DEFAULT_UNITS_PER_QUERY (0.001 USDC).
 */
export const layer = (
  terms: Omit<PaymentTerms, "memoPrefix" | "unitsPerQuery"> & {
    readonly memoPrefix?: string;
    readonly unitsPerQuery?: bigint | undefined;
    /** Epoch ms the store's ledger started (its used signatures are kept since). */
    readonly ledgerStart?: number | undefined;
  },
) =>
  Layer.effect(PaymentSettings)(
    Effect.gen(function* () {
      const store = yield* PaymentStore;
      const now = yield* Clock.currentTimeMillis;
      const { ledgerStart, ...rest } = terms;
      return PaymentSettings.of({
        memoPrefix: MEMO_PREFIX,
        ...rest,
        unitsPerQuery: terms.unitsPerQuery ?? DEFAULT_UNITS_PER_QUERY,
        notBefore: store.durable ? undefined : (ledgerStart ?? now),
      });
    }),
  );
