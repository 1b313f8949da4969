/**
 * Operations endpoints: liveness, readiness, Prometheus metrics and the OpenAPI document. These
 * are public paths, so /readyz answers a stranger from a cached probe (at most one a 5 s, reading
 * nothing else) with its verdict and each check's ok/unavailable; the problems, the docs sync's
 * record and the fee payer's SOL need METRICS_TOKEN, as /metrics does. The edge counts /readyz
 * against the protection limit.
 */
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import type * as Redacted from "effect/Redacted";
import { type Context, Hono } from "hono";
import { ChainReader, type ChainUnavailable } from "../../../core/ports/chain-reader.ts";
import type { DocsSyncRecord } from "../../../core/ports/docs-sync.ts";
import { type HeldSize, HeldSizes } from "../../../core/ports/held-sizes.ts";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import { type RetrievalFailed, Retriever } from "../../../core/ports/retrieval.ts";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { bearerDoor, type DoorVerdict, retryAfterSeconds } from "../../hono-kit/bearer-door.ts";
import type { FailureLimiter } from "../../hono-kit/failure-limiter.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import { renderMemory } from "../../observability/memory-metrics.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { SponsorWatch } from "../../payments/v2/sponsor-watch.ts";
import { openApiDocument } from "../openapi.ts";
import {
  type CheckResult,
  READINESS_PROBE_EVERY_MS,
  type SharedProbe,
  sharedProbe,
} from "../service-limiters.ts";

type Probe = Effect.Effect<
  void,
  StoreUnavailable | ChainUnavailable | RetrievalFailed,
  QuotaStore | ChainReader | Retriever
>;

/** Each failure's own secret-free text (which host, which collection), for the operator. */
const problemOf = (error: StoreUnavailable | ChainUnavailable | RetrievalFailed): string =>
  error._tag === "StoreUnavailable" ? error.reason : error.message;

const check = (
  name: string,
  probe: Probe,
): Effect.Effect<CheckResult, never, QuotaStore | ChainReader | Retriever> =>
  probe.pipe(
    Effect.timeoutOrElse({
      duration: "2 seconds",
      orElse: () => Effect.fail({ _tag: "Timeout", message: "no answer within 2 s" } as const),
    }),
    Effect.map(() => ({ name, problem: undefined })),
    Effect.catch((error) =>
      Effect.succeed({ name, problem: error._tag === "Timeout" ? error.message : problemOf(error) }),
    ),
  );

export interface OpsDeps {
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  /** METRICS_TOKEN: opens /metrics and /readyz's problem texts; undefined: /metrics is not served. */
  readonly metricsToken: Redacted.Redacted<string> | undefined;
  /** At most one probe of the dependencies per this many ms, whatever the request rate. */
  readonly probeEveryMs?: number;
  /** The x402 v2 fee payer's SOL, watched (absent: x402 v2 not offered). Not a readiness check. */
  readonly sponsor?: SponsorWatch | undefined;
  /** The background sync of DOCS_URL (absent: none). Not a readiness check: a failed sync leaves the index serving. */
  readonly docsSync?: { readonly last: () => Promise<DocsSyncRecord | undefined> } | undefined;
  readonly now?: () => number;
  /** Wrong METRICS_TOKENs per client, one count for every site's /metrics and /readyz. */
  readonly metricsLockout: FailureLimiter;
  /** The chain check, one for every site (the service's, service-limiters.ts). */
  readonly chainReadiness: SharedProbe<CheckResult>;
}

interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, string>>;
  readonly problems: Readonly<Record<string, string>>;
}

/**
 * One probe: the site's own store and index, and the service's chain, whose check (a paid
 * getSlot) every site shares: at most one per period for the whole service (service-limiters.ts).
 */
const probeAll = async (
  runtime: AppRuntime,
  chainReadiness: SharedProbe<CheckResult>,
): Promise<Readiness> => {
  const chain = chainReadiness(async () => {
    const probed = await runOutcome(
      runtime,
      check(
        "chain",
        Effect.flatMap(ChainReader, (reader) => reader.ping),
      ),
    );
    return probed.ok ? probed.value : { name: "chain", problem: "the runtime could not run the probe" };
  });
  const outcome = await runOutcome(
    runtime,
    Effect.all(
      [
        check(
          "store",
          Effect.flatMap(QuotaStore, (store) => store.ping),
        ),
        check(
          "retrieval",
          Effect.flatMap(Retriever, (retriever) => retriever.ping),
        ),
      ],
      { concurrency: "unbounded" },
    ),
  );
  const [store, retrieval] = outcome.ok ? outcome.value : [];
  const results = [store, await chain, retrieval].filter((result) => result !== undefined);
  const failed = results.filter(({ problem }) => problem !== undefined);
  return {
    ready: outcome.ok && failed.length === 0,
    checks: Object.fromEntries(
      results.map(({ name, problem }) => [name, problem === undefined ? "ok" : "unavailable"]),
    ),
    problems: Object.fromEntries(failed.map(({ name, problem }) => [name, problem ?? ""])),
  };
};

/**
 * The probe's answer shared by every request of its period: each probe pings Redis and opens
 * the Chroma collection (and, through the shared chain check, may call the paid RPC), so a flood
 * of /readyz must not mean a flood of those. A probe in progress is awaited, not repeated.
 */
const cachedReadiness = (probe: () => Promise<Readiness>, everyMs: number, now: () => number) => {
  const shared = sharedProbe<Readiness>(everyMs, now);
  return () => shared(probe);
};

/** What /readyz tells the operator of the fee payer: offered or withdrawn, and its SOL. */
const sponsorOf = (sponsor: SponsorWatch | undefined) => {
  if (sponsor === undefined) return {};
  const lamports = sponsor.lamports();
  return {
    x402: {
      offered: sponsor.offered(),
      ...(lamports !== undefined ? { feePayerLamports: lamports.toString() } : {}),
    },
  };
};

/**
 * What /readyz tells the operator of the docs sync (a store read): when it last ran, what it did,
 * from which URL, and after a failure why, among the problems.
 */
const docsSyncOf = async (docsSync: OpsDeps["docsSync"]) => {
  if (docsSync === undefined) return { summary: {}, problem: {} };
  const last = await docsSync.last().catch(() => undefined);
  if (last === undefined) return { summary: { docsSync: { lastSync: null } }, problem: {} };
  const { at, ok, pages, changed, removed, errors, url, problem } = last;
  return {
    summary: {
      docsSync: {
        lastSync: new Date(at).toISOString(),
        ok,
        pages,
        changed,
        removed,
        errors,
        url,
      },
    },
    problem:
      problem !== undefined
        ? { docsSync: `last sync failed (${problem}); the previous index is serving` }
        : {},
  };
};

const METRICS_TYPE = { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" };

export const opsRoutes = ({
  runtime,
  metrics,
  metricsToken,
  probeEveryMs = READINESS_PROBE_EVERY_MS,
  now = Date.now,
  sponsor,
  docsSync,
  metricsLockout,
  chainReadiness,
}: OpsDeps) => {
  const readiness = cachedReadiness(() => probeAll(runtime, chainReadiness), probeEveryMs, now);
  // Resolved on the first scrape (the runtime is built by then); a store holding nothing in the process has none.
  let held: (() => ReadonlyArray<HeldSize>) | undefined;
  const heldSizes = (): ReadonlyArray<HeldSize> => {
    if (held === undefined) {
      const found = runOutcome(runtime, Effect.map(Effect.serviceOption(HeldSizes), Option.getOrUndefined));
      if (found instanceof Promise || !found.ok) return [];
      const service = found.value;
      held = service === undefined ? () => [] : service.sizes;
    }
    return held();
  };
  const door = metricsToken === undefined ? undefined : bearerDoor(metricsToken, metricsLockout);
  /** Whether the request carries METRICS_TOKEN; a wrong one is counted and logged, never echoed. */
  const verdictOf = (c: Context<AppEnv>): DoorVerdict => {
    if (door === undefined) return { kind: "missing" };
    const identity = c.env.identity;
    const verdict = door(c.req.header("authorization"), identity);
    if (verdict.kind === "wrong") {
      metrics.count("metrics_auth_failures_total");
      c.env.log.warn("wrong metrics token", { identity });
    }
    return verdict;
  };
  const routes = new Hono<AppEnv>()
    .get("/healthz", (c) => c.json({ status: "ok" }))
    .get("/readyz", async (c) => {
      const { ready, checks, problems } = await readiness();
      const status = ready ? 200 : 503;
      // A stranger gets the cached verdict, each check as a bare ok/unavailable, and nothing read
      // for it (the docs sync's record is a store read). Host names, ports, collection names,
      // the docs sync and the fee payer are for the operator (the metrics token) only.
      const detailed = c.req.header("authorization") !== undefined && verdictOf(c).kind === "ok";
      if (!detailed) return c.json({ status: ready ? "ready" : "not ready", checks }, status);
      const x402 = sponsorOf(sponsor);
      const sync = await docsSyncOf(docsSync);
      const allProblems = { ...(ready ? {} : problems), ...sync.problem };
      return c.json(
        {
          status: ready ? "ready" : "not ready",
          checks,
          ...x402,
          ...sync.summary,
          ...(Object.keys(allProblems).length > 0 ? { problems: allProblems } : {}),
        },
        status,
      );
    })
    .get("/openapi.json", (c) => c.json(openApiDocument));
  if (door === undefined) return routes;
  return routes.get("/metrics", (c) => {
    const verdict = verdictOf(c);
    switch (verdict.kind) {
      case "ok":
        return c.text(metrics.render() + renderMemory(process.memoryUsage(), heldSizes()), 200, METRICS_TYPE);
      case "locked":
        return c.json(
          {
            success: false,
            error: "Too many wrong metrics tokens: try again later",
            code: "TOO_MANY_ATTEMPTS",
          },
          429,
          { "Retry-After": retryAfterSeconds(verdict.retryAfterMs) },
        );
      case "missing":
      case "wrong":
        return c.json(
          {
            success: false,
            error: "Send Authorization: Bearer <METRICS_TOKEN>",
            code: "UNAUTHORIZED",
          },
          401,
          { "WWW-Authenticate": 'Bearer realm="metrics"' },
        );
      default:
        return verdict satisfies never;
    }
  });
};
