/**
 * The ceiling on chain lookups a client can cause. Any signature the ledger has not seen (POST
 * /api/payment, X-Payment-Authorization on /api/chat and on paywalled routes, MCP `_meta`
 * payments) makes the service read the chain on the operator's RPC plan: a getTransaction, and
 * a getSignatureStatuses when the node has none, so up to two calls a lookup. A random
 * well-formed signature signed by a fresh key costs the client nothing, so every such lookup is
 * admitted against three counters, all or none, and is spent when admitted, before the call
 * (a refused lookup costs no RPC call; an admitted one is never refunded, found or not):
 *   - per client, PER_CLIENT (30) a minute: a pending transfer retried by the widget every 5 s
 *     is 12 a minute, well inside it;
 *   - for everyone together, GLOBAL (600) a minute: at most 1,200 RPC calls a minute (20 a
 *     second) from lookups, whatever the number of addresses, while 600 purchases a minute is
 *     far above what a documentation assistant's payers make; a flooder needs 20 addresses to
 *     fill it, and only delays payers by the rest of the minute (their transfers stay valid);
 *   - per payment_id, PER_PAYMENT (3) distinct signatures over its life: a payer who sent a
 *     wrong transfer and then the right one needs 2, and the same signature retried takes no
 *     new slot; without it one 402 would accept lookups from any number of strangers.
 * The counters are the service's ceiling counter's (lookupCounters), shared through the store.
 * Windows are fixed UTC minutes. Counters are written only when a lookup is admitted, so the
 * state a stranger can make grows with the global budget, not with the requests refused. A
 * payment_id's counter lives until its request's grace ends, but at most PAYMENT_COUNTER_MAX_MS
 * (15 minutes) from its latest lookup: a route offering day-long requests would otherwise keep
 * 600 a minute for a day (~870,000); capped, at most 9,000 are live, and a payment_id older than
 * that admits 3 more signatures a quarter-hour, still inside the per-client and global budgets.
 */
import * as Context from "effect/Context";
import { distinctCounter, retryAfterMs, windowCounter } from "../ceilings/counters.ts";
import type { Counter, CounterVerdict } from "../ports/ceiling-counter.ts";

export const CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE = 30;
export const CHAIN_LOOKUPS_PER_MINUTE = 600;
export const CHAIN_LOOKUPS_PER_PAYMENT = 3;
export const LOOKUP_WINDOW_MS = 60_000;
export const PAYMENT_COUNTER_MAX_MS = 15 * 60_000;

/** How long a payment_id's lookup counter is kept, from a lookup at `now`. */
export const paymentCounterUntil = (requestLastsUntil: number, now: number): number =>
  Math.min(requestLastsUntil, now + PAYMENT_COUNTER_MAX_MS);

export interface ChainLookupCeilings {
  readonly perClientPerMinute: number;
  readonly perMinute: number;
  readonly perPayment: number;
}

export const DEFAULT_CHAIN_LOOKUP_CEILINGS: ChainLookupCeilings = {
  perClientPerMinute: CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE,
  perMinute: CHAIN_LOOKUPS_PER_MINUTE,
  perPayment: CHAIN_LOOKUPS_PER_PAYMENT,
};

/** The ceilings in force (the configured ones; the defaults where nothing provides them). */
export const ChainLookupLimits = Context.Reference<ChainLookupCeilings>("core/ChainLookupLimits", {
  defaultValue: () => DEFAULT_CHAIN_LOOKUP_CEILINGS,
});

/** One lookup asked for: by whom, of what, and for which payment request (none for POST /api/payment). */
export interface LookupRequest {
  readonly client: string;
  readonly signature: string;
  readonly payment?: { readonly id: string; readonly expiresAt: number };
}

/** What the counters hold now, in the current window, before this lookup. */
export interface LookupCounts {
  readonly client: number;
  readonly everyone: number;
  /** The distinct signatures the payment_id has been looked up with (empty without one). */
  readonly paymentSignatures: ReadonlyArray<string>;
}

export type LookupRefusal =
  | { readonly scope: "client" | "everyone"; readonly retryAfterMs: number }
  | { readonly scope: "payment" };

export type LookupVerdict = { readonly admitted: true } | ({ readonly admitted: false } & LookupRefusal);

/** The fixed window `now` falls in (its number) and the ms left in it. */
export const windowOf = (now: number) => {
  const window = Math.floor(now / LOOKUP_WINDOW_MS);
  return { window, leftMs: (window + 1) * LOOKUP_WINDOW_MS - now };
};

/** Whether the lookup fits every ceiling; the stores write the counters only when it does. */
export const admitLookup = (
  counts: LookupCounts,
  request: LookupRequest,
  ceilings: ChainLookupCeilings,
  now: number,
): LookupVerdict => {
  const { leftMs } = windowOf(now);
  if (
    request.payment !== undefined &&
    !counts.paymentSignatures.includes(request.signature) &&
    counts.paymentSignatures.length >= ceilings.perPayment
  )
    return { admitted: false, scope: "payment" };
  if (counts.client >= ceilings.perClientPerMinute)
    return { admitted: false, scope: "client", retryAfterMs: leftMs };
  if (counts.everyone >= ceilings.perMinute)
    return { admitted: false, scope: "everyone", retryAfterMs: leftMs };
  return { admitted: true };
};

/**
 * The counters one lookup must fit, in admitLookup's order (the payment_id's signatures, the
 * client's minute, everyone's minute), for the ceiling counter. The payment's `expiresAt` is
 * already bounded by paymentCounterUntil.
 */
export const lookupCounters = (
  request: LookupRequest,
  ceilings: ChainLookupCeilings,
  now: number,
): ReadonlyArray<Counter> => [
  ...(request.payment === undefined
    ? []
    : [
        distinctCounter(
          "chain-lookups-per-payment",
          request.payment.id,
          request.signature,
          ceilings.perPayment,
          request.payment.expiresAt - now,
        ),
      ]),
  windowCounter("chain-lookups-per-client", request.client, ceilings.perClientPerMinute, now),
  windowCounter("chain-lookups", "all", ceilings.perMinute, now),
];

/** The counter's verdict as the budget's. */
export const lookupVerdict = (verdict: CounterVerdict, now: number): LookupVerdict => {
  if (verdict.admitted) return { admitted: true };
  const { ceiling } = verdict.refusedBy;
  if (ceiling === "chain-lookups-per-payment") return { admitted: false, scope: "payment" };
  return {
    admitted: false,
    scope: ceiling === "chain-lookups-per-client" ? "client" : "everyone",
    retryAfterMs: retryAfterMs(verdict.refusedBy, now) ?? windowOf(now).leftMs,
  };
};
