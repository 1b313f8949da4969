/**
 * The real app (edge, routes, store) for the status benchmark. Only the store is
 * exercised by GET /api/status; the other ports are not reachable from that route, so they are
 * bound to layers that fail loudly if a request ever touches them.
 */
import { Effect, Layer, ManagedRuntime, Stream } from "effect";
import { MemoryStore } from "../../../adapters/store-memory/index.ts";
import { RedisStore } from "../../../adapters/store-redis/index.ts";
import { ChainReader } from "../../../core/ports/chain-reader.ts";
import { Conversations } from "../../../core/ports/conversations.ts";
import { Generator } from "../../../core/ports/generator.ts";
import { Retriever } from "../../../core/ports/retrieval.ts";
import { createApp } from "../../app.ts";
import { makePaymentDesk } from "../../http/payment-desk.ts";
import { makeLogger } from "../../observability/log.ts";
import { makeMetrics } from "../../observability/metrics.ts";
import { HOLD_TTL_MS } from "../../runtime/app-layer.ts";

const port = Number(process.argv[2]);
const redisUrl = process.argv[3];
const limits = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: HOLD_TTL_MS };
const unused = (what: string) => Effect.die(new Error(`${what} is not part of the status benchmark`));
const others = Layer.mergeAll(
  Layer.succeed(ChainReader)({ lookup: () => unused("chain"), ping: unused("chain") }),
  Layer.succeed(Retriever)({ retrieve: () => unused("retriever"), ping: unused("retriever") }),
  Layer.succeed(Generator)({
    name: "none",
    generate: () => unused("generator"),
    stream: () => Stream.die("unused"),
  }),
  Layer.succeed(Conversations)({
    recent: () => unused("conversations"),
    append: () => unused("conversations"),
  }),
);
const store =
  redisUrl === undefined ? MemoryStore.layer(limits) : RedisStore.layer({ url: redisUrl, limits });
const runtime = ManagedRuntime.make(Layer.mergeAll(store, others).pipe(Layer.orDie));
await runtime.runPromise(Effect.void);
// The real logger, as `npm start` has it: every request writes its access line to stdout (the
// benchmark sends stdout to /dev/null, so it measures the service, not a terminal).
const app = createApp({
  runtime,
  config: { allowedOrigins: [], trustProxy: { kind: "none" }, protectionRps: 1_000_000_000 },
  desk: makePaymentDesk({
    network: "devnet",
    usdcMint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  }),
  logger: makeLogger(),
  metrics: makeMetrics(),
});
Bun.serve({
  port,
  hostname: "127.0.0.1",
  fetch: (request, server) => app.fetch(request, { remoteAddress: server.requestIP(request)?.address }),
});
console.log("ready");
