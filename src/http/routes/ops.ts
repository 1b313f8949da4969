/** Operations endpoints: liveness, readiness, Prometheus metrics and the OpenAPI document. */
import { Effect } from "effect";
import { Hono } from "hono";
import { ChainReader, type ChainUnavailable } from "../../../core/ports/chain-reader.ts";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import { type RetrievalFailed, Retriever } from "../../../core/ports/retrieval.ts";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { openApiDocument } from "../openapi.ts";

type Probe = Effect.Effect<
  void,
  StoreUnavailable | ChainUnavailable | RetrievalFailed,
  QuotaStore | ChainReader | Retriever
>;

/** Each failure's own secret-free text (which host, which collection), for the operator. */
const problemOf = (error: StoreUnavailable | ChainUnavailable | RetrievalFailed): string =>
  error._tag === "StoreUnavailable" ? error.reason : error.message;

const check = (name: string, probe: Probe) =>
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

export const opsRoutes = (runtime: AppRuntime, metrics: Metrics) =>
  new Hono<AppEnv>()
    .get("/healthz", (c) => c.json({ status: "ok" }))
    .get("/readyz", async (c) => {
      const outcome = await runOutcome(
        runtime,
        Effect.all(
          [
            check(
              "store",
              Effect.flatMap(QuotaStore, (store) => store.ping),
            ),
            check(
              "chain",
              Effect.flatMap(ChainReader, (chain) => chain.ping),
            ),
            check(
              "retrieval",
              Effect.flatMap(Retriever, (retriever) => retriever.ping),
            ),
          ],
          { concurrency: "unbounded" },
        ),
      );
      const results = outcome.ok ? outcome.value : [];
      const checks = Object.fromEntries(
        results.map(({ name, problem }) => [name, problem === undefined ? "ok" : "unavailable"]),
      );
      const failed = results.filter(({ problem }) => problem !== undefined);
      const ready = outcome.ok && failed.length === 0;
      const problems = Object.fromEntries(failed.map(({ name, problem }) => [name, problem]));
      return c.json(
        { status: ready ? "ready" : "not ready", checks, ...(ready ? {} : { problems }) },
        ready ? 200 : 503,
      );
    })
    .get("/metrics", (c) =>
      c.text(metrics.render(), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" }),
    )
    .get("/openapi.json", (c) => c.json(openApiDocument));
