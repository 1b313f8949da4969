/**
 * Every ceiling the service has, declared once: what it counts, per what key, over which window,
 * its default limit and bounds, the setting that overrides it, whether the instances share it
 * (scope "service": through the store) or each holds its own ("instance", with the reason), and
 * what it protects. Metrics name a refusal by the ceiling's name (`ceiling_refusals_total`), the
 * settings are read from here (read-ceilings.ts) and docs/configuration.md's table of ceilings is
 * generated from it (ceilings-doc.ts; a test holds them equal).
 *
 * The windowed counts of scope "service" go through one port, core/ports/ceiling-counter.ts (one
 * Lua script on Redis); caps on stored records are enforced where the records are written, and
 * are listed here so an operator finds every ceiling in one place.
 *
 * Windows are fixed, aligned on the epoch (a minute turns on the UTC minute, a day at UTC
 * midnight), so every instance agrees on them from its clock alone and a count is one key; the
 * price is that a client may spend a whole window's limit at its end and again at the next one's
 * start: up to twice the limit within a moment, never more than the limit within one window.
 */
import * as Context from "effect/Context";

/** Whose count it is. */
export type CeilingKey =
  | "client"
  | "client+endpoint"
  | "site+client"
  | "wallet"
  | "payment"
  | "site"
  | "service";

export interface CeilingSpec {
  /** What one unit of the count is. */
  readonly counts: string;
  readonly key: CeilingKey;
  /** Fixed window, in ms; undefined: a cap on what is held at once. */
  readonly windowMs: number | undefined;
  readonly limit: { readonly default: number; readonly min: number; readonly max: number };
  /** The environment variable that overrides the default (kept from earlier releases). */
  readonly setting?: string;
  readonly scope: "instance" | "service";
  /** Why an instance holds its own count although the design says ceilings are shared. */
  readonly instanceReason?: string;
  readonly protects: string;
  /** More for the operator (Markdown), written into docs/configuration.md's row. */
  readonly note?: string;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const CEILINGS = {
  "protection-limit": {
    counts: "requests",
    key: "client+endpoint",
    windowMs: SECOND,
    limit: { default: 100, min: 1, max: 1_000_000 },
    setting: "PROTECTION_RATE_LIMIT",
    scope: "instance",
    instanceReason:
      "checked before anything else on every request: a store round trip each would double the hot path's latency and load the store it guards; N instances admit N times it",
    protects: "every instance's CPU and the store from one client's request flood",
    note: "on `/api/*`, `/x402/*`, `/mcp`, `/readyz`, `/llms.txt` and `/llms-full.txt` of every site; past it 429",
  },
  "in-flight-per-client": {
    counts: "requests in flight at once",
    key: "client",
    windowMs: undefined,
    limit: { default: 64, min: 1, max: 100_000 },
    setting: "MAX_IN_FLIGHT_PER_CLIENT",
    scope: "instance",
    instanceReason: "what it counts (open requests) lives in this process and ends with its connection",
    protects: "the instance's memory and sockets from slow requests held open",
    note: "more get 429 at once",
  },
  "rpc-relay-per-client": {
    counts: "RPC calls the widget's relay forwards",
    key: "client",
    windowMs: MINUTE,
    limit: { default: 60, min: 1, max: 1_000_000 },
    setting: "RPC_RELAY_PER_CLIENT_PER_MINUTE",
    scope: "service",
    protects: "the operator's RPC plan",
    note: "the widget's relay, `/api/solana-rpc` of every site; past it 429 with `Retry-After` (503 while the store is unreachable: nothing is forwarded uncounted)",
  },
  "rpc-relay": {
    counts: "RPC calls the widget's relay forwards (a transaction paying the service is exempt)",
    key: "service",
    windowMs: MINUTE,
    limit: { default: 1_200, min: 1, max: 10_000_000 },
    setting: "RPC_RELAY_PER_MINUTE",
    scope: "service",
    protects: "the operator's RPC plan, whatever the number of addresses",
    note: "all clients and all sites together",
  },
  "chain-lookups-per-client": {
    counts: "chain lookups of signatures the service has not seen",
    key: "client",
    windowMs: MINUTE,
    limit: { default: 30, min: 1, max: 1_000_000 },
    setting: "CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE",
    scope: "service",
    protects: "the operator's RPC plan (up to two calls a lookup)",
    note: "`POST /api/payment`, `X-Payment-Authorization` on `/api/chat` and paywalled routes, MCP `_meta` payments; past it 429 (or the dialect's error) with `Retry-After`, no RPC call ([payments.md](payments.md#what-an-attacker-can-and-cannot-do))",
  },
  "chain-lookups": {
    counts: "chain lookups of signatures the service has not seen",
    key: "service",
    windowMs: MINUTE,
    limit: { default: 600, min: 1, max: 10_000_000 },
    setting: "CHAIN_LOOKUPS_PER_MINUTE",
    scope: "service",
    protects: "the operator's RPC plan, whatever the number of addresses",
    note: "at most 1,200 RPC calls a minute from lookups",
  },
  "chain-lookups-per-payment": {
    counts: "distinct signatures looked up for one payment_id",
    key: "payment",
    windowMs: 15 * MINUTE,
    limit: { default: 3, min: 3, max: 3 },
    scope: "service",
    protects: "the RPC plan from strangers naming one 402's payment_id",
  },
  "sign-in-attempts-per-client": {
    counts: "sign-in challenges and attempts",
    key: "client",
    windowMs: MINUTE,
    limit: { default: 20, min: 20, max: 20 },
    scope: "instance",
    instanceReason:
      "guards this instance's signature checks; the state sign-ins leave is bounded by the service-wide creditless-sign-ins and sign-ins-per-wallet",
    protects: "the instance's CPU (signature verification)",
  },
  "sign-ins-per-wallet": {
    counts: "sign-ins of a wallet that already holds a session",
    key: "wallet",
    windowMs: HOUR,
    limit: { default: 30, min: 30, max: 30 },
    scope: "service",
    protects: "the store's writes: a script churning one wallet's sessions",
  },
  "creditless-sign-ins": {
    counts: "sign-ins of wallets without credits, on every site together",
    key: "service",
    windowMs: MINUTE,
    limit: { default: 600, min: 1, max: 10_000_000 },
    setting: "CREDITLESS_SIGN_INS_PER_MINUTE",
    scope: "service",
    protects: "the store: used nonces (about 3,000) and the eviction order's churn",
    note: "past it such a sign-in is `429 TOO_MANY_SIGN_INS` until the minute turns (checked before its nonce is stored), while wallets holding credits still sign in ([payments.md](payments.md#what-an-attacker-can-and-cannot-do))",
  },
  "sessions-per-wallet": {
    counts: "live sessions of one wallet (one more closes the oldest)",
    key: "wallet",
    windowMs: undefined,
    limit: { default: 10, min: 10, max: 10 },
    scope: "service",
    protects: "the store's session records",
  },
  "creditless-sessions": {
    counts: "session records of wallets without credits, and closed ones (one more deletes the oldest)",
    key: "site",
    windowMs: undefined,
    limit: { default: 50_000, min: 1, max: 10_000_000 },
    setting: "MAX_CREDITLESS_SESSIONS",
    scope: "service",
    protects: "the store's memory (about 37 MB on Redis at the default)",
    note: "past it the oldest is deleted and reads `SESSION_UNKNOWN`; a live session of a wallet holding credits is never deleted",
  },
  "console-token-failures": {
    counts: "wrong console tokens (ADMIN_TOKEN, owner tokens); past it a 15-minute lockout",
    key: "client",
    windowMs: 15 * MINUTE,
    limit: { default: 5, min: 5, max: 5 },
    scope: "instance",
    instanceReason:
      "tokens are at least 16 characters, so the lockout slows guessing and log noise rather than guarding a count; N instances give N times 5 guesses",
    protects: "the console's tokens from guessing",
  },
  "metrics-token-failures": {
    counts: "wrong METRICS_TOKEN on /metrics and /readyz; past it a 15-minute lockout",
    key: "client",
    windowMs: 15 * MINUTE,
    limit: { default: 5, min: 5, max: 5 },
    scope: "instance",
    instanceReason: "as console-token-failures",
    protects: "the metrics token from guessing",
  },
  "facilitator-token-failures": {
    counts: "wrong facilitator tokens per client and presented value (100 for everyone together)",
    key: "client",
    windowMs: 15 * MINUTE,
    limit: { default: 5, min: 5, max: 5 },
    scope: "instance",
    instanceReason: "as console-token-failures",
    protects: "X402_FACILITATOR_TOKEN from guessing",
  },
  "readiness-probe": {
    counts: "chain probes (getSlot) of /readyz, every site together",
    key: "service",
    windowMs: 5 * SECOND,
    limit: { default: 1, min: 1, max: 1 },
    scope: "instance",
    instanceReason: "each instance answers its own readiness; callers in the period share its one answer",
    protects: "the operator's RPC plan from anonymous /readyz",
  },
  "free-questions": {
    counts: "free questions answered (a declined one is given back)",
    key: "site+client",
    windowMs: DAY,
    limit: { default: 3, min: 0, max: 1_000_000 },
    setting: "RATE_LIMIT_FREE_QUERIES",
    scope: "service",
    protects: "the language model's bill, per site",
    note: "a site's `freeQuestions` sets its own",
  },
  "free-questions-across-sites": {
    counts: "free questions answered on every site together (a declined one is given back)",
    key: "client",
    windowMs: DAY,
    limit: { default: 20, min: 0, max: 1_000_000 },
    setting: "FREE_QUESTIONS_ACROSS_SITES",
    scope: "service",
    protects: "the service's language-model key from one address taking every site's free answers",
    note: "never below the largest free-questions of the service's sites (the default site's and the sites file's, taken again on a reload), so it limits free questions summed over several sites and never cuts one site's own. Past it, on a site where free questions are left, the usual 402 (or a paid question when the client holds credits); `GET /api/status` shows no more free questions than are left across sites. Each free question is counted by its hold, so giving one back twice gives back one, and one answered is kept: nothing gives it back. A free question whose instance died before it was answered or declined keeps its count until the UTC day turns (it errs toward the operator)",
  },
  "declines-per-client": {
    counts: 'declined questions ("not in the docs"), given back or not, on every site together',
    key: "client",
    windowMs: DAY,
    limit: { default: 50, min: 1, max: 1_000_000 },
    setting: "DECLINES_PER_CLIENT_PER_DAY",
    scope: "service",
    protects:
      "the language model's bill: a declined question is free, yet with a model its decline may come after a whole generation",
    note: 'past it a question is refused before anything is retrieved or generated: 429 `TOO_MANY_DECLINES` with `Retry-After` until UTC midnight, nothing charged. Refused rather than charged: a visitor expects not to pay for "not in the docs", and one who asks that often is a script; answered questions never count',
  },
  "paid-daily-cap": {
    counts: "paid questions spent",
    key: "site+client",
    windowMs: DAY,
    limit: { default: 1_000, min: 1, max: 1_000_000 },
    setting: "PAID_DAILY_CAP",
    scope: "service",
    protects: "a payer from a runaway client spending all its credits in a day",
  },
  "cold-index-loads": {
    counts: "loads of a site's index not held in memory (a loaded index is never refused)",
    key: "service",
    windowMs: MINUTE,
    limit: { default: 30, min: 1, max: 100_000 },
    setting: "COLD_INDEX_LOADS_PER_MINUTE",
    scope: "instance",
    instanceReason:
      "a load costs this instance's CPU, disk and memory, and each instance loads its own copy: the budget is per instance, so N instances load up to N times it a minute, each within its own means",
    protects: "the instance's CPU and disk from addresses asking large sites in turn",
    note: "admitted together with cold-index-loads-per-client, all or none. Only a question may spend the whole budget; a free listing (`llms.txt`, `llms-full.txt`, MCP `read_page` and `search`, the console) starts a load only while more than half of the minute's budget is left, so strangers reading listings never leave questions without loads (no listing file is kept apart from the index to serve instead). Past it 503 `COLD_INDEX_LOADS_LIMITED` with `Retry-After`, nothing charged and nothing of the budget spent. An index that failed to load answers 503 for 60 s without loading again",
  },
  "cold-index-loads-per-client": {
    counts: "loads of a site's index not held in memory that one client's requests start",
    key: "client",
    windowMs: MINUTE,
    limit: { default: 3, min: 1, max: 100_000 },
    setting: "COLD_INDEX_LOADS_PER_CLIENT_PER_MINUTE",
    scope: "instance",
    instanceReason: "as cold-index-loads: the load it limits costs this instance",
    protects: "the service's cold-index-loads from one address asking (or listing) every cold site in turn",
    note: "past it 503 `COLD_INDEX_LOADS_LIMITED` with `Retry-After`, nothing charged; indexes already loaded answer as usual",
  },
  "sites-memory": {
    counts: "MiB the loaded indexes hold (past it the least recently used idle one is dropped)",
    key: "service",
    windowMs: undefined,
    limit: { default: 512, min: 1, max: 1_000_000 },
    setting: "SITES_MEMORY_MB",
    scope: "instance",
    instanceReason: "the memory is the instance's",
    protects: "the instance's memory",
    note: "a local index counts its file's size, a Chroma site its chunks' text (2 bytes a character) and lexical tables; an index in use is never dropped",
  },
  "sponsor-losses": {
    counts: "lamports failed settlements cost the fee payer (past it x402 v2 is withdrawn)",
    key: "service",
    windowMs: HOUR,
    limit: { default: 1_000_000, min: 0, max: 1_000_000_000_000 },
    setting: "X402_SPONSOR_LOSS_LAMPORTS_PER_HOUR",
    scope: "service",
    protects: "the fee payer's SOL",
    note: "0 = withdrawn after any loss, with one WARN, until the hour turns ([x402.md](x402.md#what-failed-settlements-can-cost-the-sponsor))",
  },
  "insights-events": {
    counts: "insight events kept (the oldest dropped first)",
    key: "site",
    windowMs: undefined,
    limit: { default: 100_000, min: 100, max: 10_000_000 },
    setting: "INSIGHTS_MAX_EVENTS",
    scope: "service",
    protects: "the store's memory",
  },
  conversations: {
    counts:
      "conversations kept for follow-ups (the least recently answered dropped first; each also expires 30 minutes after its last answer, and keeps its last 6 turns of at most 4,000 characters)",
    key: "site",
    windowMs: undefined,
    limit: { default: 10_000, min: 10_000, max: 10_000 },
    scope: "service",
    protects: "the store's memory (about 240 MB at the cap in the worst case)",
  },
  "docs-pages": {
    counts: "pages one crawl takes (the rest are counted and left out)",
    key: "site",
    windowMs: undefined,
    limit: { default: 5_000, min: 1, max: 1_000_000 },
    setting: "DOCS_MAX_PAGES",
    scope: "instance",
    instanceReason: "one sync runs at a time for the whole service (a lock in the store)",
    protects: "the docs host and the index's size",
    note: "counted per crawl, not per window",
  },
} as const satisfies Record<string, CeilingSpec>;

export type CeilingName = keyof typeof CEILINGS;

export const CEILING_NAMES = Object.keys(CEILINGS) as ReadonlyArray<CeilingName>;

/** The limits in force, one per ceiling. */
export type CeilingLimits = Readonly<Record<CeilingName, number>>;

/** Every ceiling at its default. */
export const DEFAULT_CEILING_LIMITS: CeilingLimits = Object.fromEntries(
  CEILING_NAMES.map((name) => [name, CEILINGS[name].limit.default]),
) as Record<CeilingName, number>;

/** The limits in force (the configured ones; the defaults where nothing provides them). */
export const CeilingLimitsInForce = Context.Reference<CeilingLimits>("core/CeilingLimits", {
  defaultValue: () => DEFAULT_CEILING_LIMITS,
});

/**
 * The largest number of free questions a day any of the service's sites gives (the default
 * site's and the sites file's, as of the last reload): free-questions-across-sites is never
 * below it, so the cap limits free questions summed over several sites and never cuts one
 * site's own. A getter, since a reload of the sites file changes it under running sites.
 */
export const LargestSiteFreeQuestions = Context.Reference<() => number>("core/LargestSiteFreeQuestions", {
  defaultValue: () => () => 0,
});

/**
 * The free questions a day all the service's sites give together (as of the last reload). When
 * they are no more than the cap across sites, the cap can never bind (one site, for one), and a
 * view need not read its counter. A getter, like the largest.
 */
export const AllSitesFreeQuestions = Context.Reference<() => number>("core/AllSitesFreeQuestions", {
  defaultValue: () => () => Number.POSITIVE_INFINITY,
});

/** free-questions-across-sites as it applies: the configured cap, or the largest site's own free questions. */
export const freeAcrossSitesLimit = (limits: CeilingLimits, largestSiteFree: number) =>
  Math.max(limits["free-questions-across-sites"], largestSiteFree);
