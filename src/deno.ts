/**
 * Deno entry point, the twin of src/main.ts: the same config, demo chain, runtime and app,
 * served with Deno.serve and stopped on Deno's signal listeners. Runs from the repo with the
 * `deno` npm package over the node_modules npm installed:
 *
 *   node_modules/.bin/deno run -A --node-modules-dir=manual --unstable-sloppy-imports src/deno.ts
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

/** The few Deno APIs used here (the project typechecks against Bun's types, not Deno's). */
interface DenoApi {
  readonly env: { readonly toObject: () => Record<string, string> };
  readonly exit: (code: number) => never;
  readonly addSignalListener: (signal: "SIGTERM" | "SIGINT", handler: () => void) => void;
  readonly serve: (
    options: { readonly port: number; readonly onListen: (addr: { hostname: string; port: number }) => void },
    handler: (
      request: Request,
      info: { readonly remoteAddr: { readonly hostname: string } },
    ) => Response | Promise<Response>,
  ) => { readonly shutdown: () => Promise<void>; readonly finished: Promise<void> };
}
declare const Deno: DenoApi;

const startedAt = Date.now();
const logger = makeLogger();
const parsed = parseConfig(Deno.env.toObject());
if (Result.isFailure(parsed)) {
  console.error(parsed.failure.message);
  Deno.exit(1);
}
const config = parsed.success;
warnAboutDefaults(config, logger);
await ensureDemoIndex(config, logger);
const { chain, stop: stopChain } = await resolveChain(config, logger);
const runtime = ManagedRuntime.make(appLayer(config, chain, logger).pipe(Layer.orDie));
// Build every layer now: a bad Redis URL or unreadable index fails the start, not the first request.
await runtime.runPromise(Effect.void).catch(async (error: unknown) => {
  logger.error("startup failed", { cause: String(error) });
  await stopChain();
  Deno.exit(1);
});

const app = createApp({
  runtime,
  config,
  desk: makePaymentDesk(chain, config.memoRequired, volatileLedgerSince(config, startedAt)),
  logger,
  metrics: makeMetrics(),
});
const server = Deno.serve(
  {
    port: config.port,
    onListen: ({ hostname, port }) =>
      logger.info("listening", {
        url: `http://${hostname}:${port}/`,
        runtime: "deno",
        network: chain.network,
        wallet: chain.wallet,
        usdcMint: chain.usdcMint,
      }),
  },
  (request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { signal });
  // shutdown() stops accepting and waits for in-flight requests (bounded like the Bun entry).
  await Promise.race([server.shutdown(), new Promise((resolve) => setTimeout(resolve, 25_000))]);
  await runtime.dispose();
  await stopChain();
  logger.info("stopped");
  Deno.exit(0);
};
Deno.addSignalListener("SIGTERM", () => void shutdown("SIGTERM"));
Deno.addSignalListener("SIGINT", () => void shutdown("SIGINT"));
