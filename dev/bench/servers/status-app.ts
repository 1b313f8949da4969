/**
 * The real app (edge, routes, store) for the status benchmark. Only the store is
 * exercised by GET /api/status; the other ports are not reachable from that route, so they are
 * bound to layers that fail loudly if a request ever touches them.
 */
import { Effect, Layer, ManagedRuntime, Redacted, Stream } from "effect";
import { ChainReader } from "../../../core/ports/chain-reader.ts";
import { Generator } from "../../../core/ports/generator.ts";
import { Retriever } from "../../../core/ports/retrieval.ts";
import { createApp } from "../../../src/app.ts";
import { makeLogger } from "../../../src/observability/log.ts";
import { makeMetrics } from "../../../src/observability/metrics.ts";
import { appLayer, defaultConfig } from "../../../src/runtime/app-layer.ts";

const port = Number(process.argv[2]);
const redisUrl = process.argv[3];
const unused = (what: string) => Effect.die(new Error(`${what} is not part of the status benchmark`));
const config = defaultConfig({
  protectionRps: 1_000_000_000,
  redisUrl: redisUrl === undefined ? undefined : Redacted.make(redisUrl),
});
const chain = {
  network: "devnet" as const,
  usdcMint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
  wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  rpcUrl: "http://127.0.0.1:9/unused",
  walletSecretKey: undefined,
};
// The real logger, as `npm start` has it: every request writes its access line to stdout (the
// benchmark sends stdout to /dev/null, so it measures the service, not a terminal).
const logger = makeLogger();
const runtime = ManagedRuntime.make(
  appLayer(config, chain, logger, {
    chain: Layer.succeed(ChainReader)({ lookup: () => unused("chain"), ping: unused("chain") }),
    retrieval: Layer.succeed(Retriever)({
      retrieve: () => unused("retriever"),
      listing: unused("retriever"),
      ping: unused("retriever"),
    }),
    generator: Layer.succeed(Generator)({
      name: "none",
      generate: () => unused("generator"),
      stream: () => Stream.die("unused"),
    }),
  }).pipe(Layer.orDie),
);
await runtime.runPromise(Effect.void);
const app = createApp({ runtime, config, logger, metrics: makeMetrics() });
Bun.serve({
  port,
  hostname: "127.0.0.1",
  fetch: (request, server) => app.fetch(request, { remoteAddress: server.requestIP(request)?.address }),
});
console.log("ready");
