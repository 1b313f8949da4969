/** Operations endpoints: liveness, readiness, Prometheus metrics and the OpenAPI document. */
import { Effect } from "effect";
import { Hono } from "hono";
import { ChainReader } from "../../../core/ports/chain-reader.ts";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import { Retriever } from "../../../core/ports/retrieval.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { openApiDocument } from "../../openapi.ts";
import type { AppEnv } from "../app-env.ts";
import { type AppRuntime, runOutcome } from "../run-effect.ts";

const check = (name: string, probe: Effect.Effect<void, unknown, QuotaStore | ChainReader | Retriever>) =>
  probe.pipe(
    Effect.timeout("2 seconds"),
    Effect.map(() => [name, "ok"] as const),
    Effect.catch(() => Effect.succeed([name, "unavailable"] as const)),
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
      const checks = outcome.ok ? Object.fromEntries(outcome.value) : {};
      const ready = outcome.ok && outcome.value.every(([, state]) => state === "ok");
      return c.json({ status: ready ? "ready" : "not ready", checks }, ready ? 200 : 503);
    })
    .get("/metrics", (c) =>
      c.text(metrics.render(), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" }),
    )
    .get("/openapi.json", (c) => c.json(openApiDocument));
