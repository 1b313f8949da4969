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

/** Memos of ours look like `docschat:<reference>`; a hosted site's `docschat:<site>:<reference>`. */
export const MEMO_PREFIX = "docschat:";

/** The site every single-site deployment is: its memos keep the service's prefix as they always had. */
export const DEFAULT_SITE = "default";

/** The memo prefix of a site's references: a transfer names the site it pays. */
export const siteMemoPrefix = (site: string): string =>
  site === DEFAULT_SITE ? MEMO_PREFIX : `${MEMO_PREFIX}${site}:`;

/** A site's id (the sites file's rule): what a memo may name as its site. */
const SITE_NAME = /^[a-z0-9-]{1,40}$/;

/**
 * The memos that carry `reference` for the site whose prefix is `own`: `<own><reference>`, and
 * on a hosted site also `docschat:<reference>`, as its memos were written before they named
 * their site (a reference noted then may still be paid with).
 */
export const memosFor = (own: string, reference: string): ReadonlyArray<string> =>
  own !== MEMO_PREFIX && own.startsWith(MEMO_PREFIX)
    ? [`${own}${reference}`, `${MEMO_PREFIX}${reference}`]
    : [`${own}${reference}`];

/**
 * The site a memo of this service names, when it is another site than the one whose prefix is
 * `own` and whose caller's references are `expected`: a reference (base58) holds no ':', so
 * `docschat:<site>:<reference>` is site <site>'s and `docschat:<reference>` the default site's.
 * A memo naming no valid site id is left to the usual check (another client's memo).
 */
export const memoSite = (
  memo: string,
  own: string,
  ...expected: ReadonlyArray<string>
): string | undefined => {
  if (!own.startsWith(MEMO_PREFIX) || !memo.startsWith(MEMO_PREFIX)) return undefined;
  if (expected.some((reference) => memosFor(own, reference).includes(memo))) return undefined;
  if (memo.startsWith(own) && !memo.slice(own.length).includes(":")) return undefined;
  const rest = memo.slice(MEMO_PREFIX.length);
  const colon = rest.indexOf(":");
  if (colon < 0) return own === MEMO_PREFIX ? undefined : DEFAULT_SITE;
  const site = rest.slice(0, colon);
  return SITE_NAME.test(site) && !rest.slice(colon + 1).includes(":") ? site : undefined;
};

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
