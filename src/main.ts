/**
 * Bun entry point: read config (fail with every problem at once), start the demo chain when no
 * chain is configured, build the runtime once, serve, and shut down gracefully.
 */
import { Effect, Layer, ManagedRuntime, Result } from "effect";
import { parseConfig } from "../core/config.ts";
import { createApp } from "./app.ts";
import { makePaymentDesk } from "./http/payment-desk.ts";
import { makeLogger } from "./observability/log.ts";
import { makeMetrics } from "./observability/metrics.ts";
import { appLayer } from "./runtime/app-layer.ts";
import { ensureDemoIndex } from "./runtime/demo-index.ts";
import { resolveChain, volatileLedgerSince, warnAboutDefaults } from "./runtime/resolve-chain.ts";

const startedAt = Date.now();
const logger = makeLogger();
const parsed = parseConfig(process.env);
if (Result.isFailure(parsed)) {
  console.error(parsed.failure.message);
  process.exit(1);
}
const config = parsed.success;
warnAboutDefaults(config, logger);
await ensureDemoIndex(config, logger);
const { chain, stop: stopChain } = await resolveChain(config, logger);
// Layer errors (Redis unreachable, unreadable index) surface at the start-up check below.
const runtime = ManagedRuntime.make(appLayer(config, chain, logger).pipe(Layer.orDie));
// Build every layer now: a bad Redis URL or unreadable index fails the start, not the first request.
await runtime.runPromise(Effect.void).catch(async (error: unknown) => {
  logger.error("startup failed", { cause: String(error) });
  await stopChain();
  process.exit(1);
});

const app = createApp({
  runtime,
  config,
  desk: makePaymentDesk(chain, config.memoRequired, volatileLedgerSince(config, startedAt)),
  logger,
  metrics: makeMetrics(),
});
const server = Bun.serve({
  port: config.port,
  fetch: (request, srv) => app.fetch(request, { remoteAddress: srv.requestIP(request)?.address }),
});
logger.info("listening", {
  url: server.url.href,
  network: chain.network,
  wallet: chain.wallet,
  usdcMint: chain.usdcMint,
});

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { signal });
  // Stop accepting; in-flight requests finish (bounded by the hold TTL budget below).
  await Promise.race([server.stop(false), Bun.sleep(25_000)]);
  await runtime.dispose();
  await stopChain();
  logger.info("stopped");
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
