/** A small Prometheus text-format registry: counters and one latency histogram. */
import { KNOWN_METHODS } from "./http-methods.ts";

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels = Readonly<Record<string, string>>;

const labelText = (labels: Labels): string => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, "_")}"`);
  return parts.length === 0 ? "" : `{${parts.join(",")}}`;
};

export interface Metrics {
  readonly countRequest: (route: string, method: string, status: number, seconds: number) => void;
  readonly count: (name: CounterName, labels?: Labels, by?: number) => void;
  /** Sets a gauge to its current value. */
  readonly gauge: (name: GaugeName, value: number) => void;
  readonly render: () => string;
}

export const COUNTERS = {
  chat_payment_required_total: "Chat requests answered 402 (quota exhausted)",
  payment_grants_total: "Payments verified and granted",
  payment_queries_granted_total: "Queries granted by payments",
  payment_rejections_total: "Payments rejected, by reason",
  x402_settlement_failures_total:
    "x402 v2 payments verified but not settled on chain (no paid content was returned)",
  ceiling_refusals_total:
    "Requests refused by a ceiling, by its name (core/ceilings/ceilings.ts; a refusal costs nothing of it)",
  site_index_loads_total:
    "Hosted sites' indexes loaded from disk because they were not held in memory (what the cold-index-loads ceiling admits)",
  payment_unknown_signature_limited_total:
    "Payments refused before any RPC call: the chain lookup budget (per client or for everyone) is spent",
  answers_total: "Answers served",
  answer_cache_hits_total: "Questions answered from the answer cache without calling the model",
  answer_cache_misses_total: "Cacheable questions the model answered (and the cache kept)",
  answer_cache_rescues_total: "Model failures answered from the cache instead of the extractive fallback",
  feedback_total: "Votes on answers, by vote",
  insights_events_total: "Insight events recorded, by kind",
  insights_record_failures_total:
    "Insight events that could not be recorded (the visitor was served anyway), by kind",
  admin_auth_failures_total: "Wrong admin tokens or forged admin sessions",
  admin_auth_locked_total: "Admin requests refused while their client was locked out after wrong tokens",
  x402_sponsor_transactions_total:
    "x402 v2 transactions the fee payer sent, by outcome (settled, failed-on-chain, unconfirmed)",
  x402_sponsor_lamports_total:
    "Lamports the fee payer paid in fees, by outcome (a refused payload is never sent and costs none)",
  x402_sponsor_refusals_total:
    "x402 v2 settlements refused sponsorship before simulation: the wallet cooled down after a failure on chain, or the hour's loss budget spent",
  x402_reconciled_total:
    "x402 v2 settlements left pending (not confirmed in the wait, or the store failed after sending) followed to their end, by kind and fate",
  x402_reconcile_given_up_total:
    "x402 v2 pending settlements given up, by kind and reason (record-forgotten, too-old): nothing could settle them any more; each is logged for a refund by hand",
  admin_cross_site_refused_total: "Admin logins and logouts refused: sent by another site's page",
  metrics_auth_failures_total: "Wrong METRICS_TOKEN on /metrics or /readyz",
  chain_rpc_calls_total:
    "JSON-RPC calls sent to the chain's RPC on the operator's plan (retries included), by method and cause (verify, readiness, sponsor, balance, relay)",
  store_round_trips_total:
    "Round trips to Redis, by command (a script call is one, whatever it runs inside Redis; the memory store makes none)",
  rpc_relay_calls_total: "Calls to the widget's RPC relay, by method and outcome (forwarded or why refused)",
  request_body_timeouts_total: "Requests answered 408: their body was not complete within the deadline",
  foreign_host_refused_total: "Requests refused by the Host and Origin allow-list, by header (host, origin)",
  x402_facilitator_auth_failures_total: "Wrong x402 facilitator tokens",
  x402_facilitator_auth_locked_total:
    "Facilitator requests refused while their client was locked out after wrong tokens",
} as const;
export type CounterName = keyof typeof COUNTERS;

export const GAUGES = {
  x402_fee_payer_lamports:
    "The x402 v2 fee payer's SOL balance in lamports, as last read (refreshed every 30 s)",
  x402_offered: "1 while x402 v2 is offered in 402s, 0 while the fee payer is below its floor",
} as const;
export type GaugeName = keyof typeof GAUGES;

/** Counts and latency histogram of one route label. */
interface RouteStats {
  /** Request count per method and status, keyed `status * 1000 + method index` (no string per request). */
  readonly counts: Map<number, number>;
  /** Count per bucket (not cumulative; summed when rendered). */
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** Methods get small indices for the numeric keys; anything else is counted as "OTHER". */
const METHODS: ReadonlyArray<string> = [...KNOWN_METHODS, "OTHER"];
const methodIndex = (method: string): number => {
  const index = METHODS.indexOf(method);
  return index < 0 ? METHODS.length - 1 : index;
};

const bucketOf = (seconds: number): number => {
  let bucket = 0;
  while (bucket < BUCKETS.length && seconds > (BUCKETS[bucket] as number)) bucket++;
  return bucket;
};

/** Creates an empty registry. */
export const makeMetrics = (): Metrics => {
  const counters = new Map<string, number>();
  const routes = new Map<string, RouteStats>();
  const gauges = new Map<GaugeName, number>();
  const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
  return {
    gauge: (name, value) => {
      gauges.set(name, value);
    },
    countRequest: (route, method, status, seconds) => {
      let stats = routes.get(route);
      if (stats === undefined) {
        stats = { counts: new Map(), buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
        routes.set(route, stats);
      }
      const key = status * 1000 + methodIndex(method);
      stats.counts.set(key, (stats.counts.get(key) ?? 0) + 1);
      const bucket = bucketOf(seconds);
      if (bucket < BUCKETS.length) stats.buckets[bucket] = (stats.buckets[bucket] ?? 0) + 1;
      stats.sum += seconds;
      stats.count += 1;
    },
    count: (name, labels = {}, by = 1) => bump(counters, `${name}${labelText(labels)}`, by),
    render: () => {
      const out: string[] = [
        "# HELP http_requests_total HTTP requests by route, method and status",
        "# TYPE http_requests_total counter",
        ...[...routes].flatMap(([route, stats]) =>
          [...stats.counts].map(([key, n]) => {
            const method = METHODS[key % 1000] ?? "OTHER";
            const status = String(Math.floor(key / 1000));
            return `http_requests_total${labelText({ route, method, status })} ${n}`;
          }),
        ),
        "# HELP http_request_duration_seconds Request latency by route",
        "# TYPE http_request_duration_seconds histogram",
      ];
      for (const [route, entry] of routes) {
        const inner = labelText({ route }).slice(1, -1);
        let cumulative = 0;
        BUCKETS.forEach((bound, i) => {
          cumulative += entry.buckets[i] ?? 0;
          out.push(`http_request_duration_seconds_bucket{${inner},le="${bound}"} ${cumulative}`);
        });
        out.push(`http_request_duration_seconds_bucket{${inner},le="+Inf"} ${entry.count}`);
        out.push(`http_request_duration_seconds_sum{${inner}} ${entry.sum}`);
        out.push(`http_request_duration_seconds_count{${inner}} ${entry.count}`);
      }
      for (const [name, help] of Object.entries(GAUGES)) {
        const value = gauges.get(name as GaugeName);
        if (value !== undefined)
          out.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
      }
      for (const [name, help] of Object.entries(COUNTERS)) {
        out.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
        const rows = [...counters].filter(([key]) => key === name || key.startsWith(`${name}{`));
        if (rows.length === 0) out.push(`${name} 0`);
        for (const [key, n] of rows) out.push(`${key} ${n}`);
      }
      // The hit rate itself, so a dashboard needs no query to read it.
      const hits = counters.get("answer_cache_hits_total") ?? 0;
      const lookups = hits + (counters.get("answer_cache_misses_total") ?? 0);
      out.push(
        "# HELP answer_cache_hit_ratio Share of cacheable questions answered from the cache (0 before any)",
        "# TYPE answer_cache_hit_ratio gauge",
        `answer_cache_hit_ratio ${lookups === 0 ? 0 : hits / lookups}`,
      );
      return `${out.join("\n")}\n`;
    },
  };
};
