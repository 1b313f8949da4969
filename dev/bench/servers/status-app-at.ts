/**
 * The real app (edge, routes, store) of the checkout at `root`, as the status benchmarks run
 * it: only the store is exercised by GET /api/status, so the other ports are bound to layers
 * that fail loudly if a request ever touches them. Imported from `root` so the edge-cost bench
 * can build another checkout's app (e.g. main's) in the same process.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import type * as Redacted from "effect/Redacted";
import * as Stream from "effect/Stream";

export const statusAppAt = async (
  root: string,
  settings: { readonly redisUrl?: Redacted.Redacted<string> | undefined; readonly host?: string } = {},
) => {
  const { ChainReader } = await import(`${root}/core/ports/chain-reader.ts`);
  const { Generator } = await import(`${root}/core/ports/generator.ts`);
  const { Retriever } = await import(`${root}/core/ports/retrieval.ts`);
  const { createApp } = await import(`${root}/src/app.ts`);
  const { makeLogger } = await import(`${root}/src/observability/log.ts`);
  const { makeMetrics } = await import(`${root}/src/observability/metrics.ts`);
  const { appLayer, defaultConfig } = await import(`${root}/src/runtime/app-layer.ts`);
  const unused = (what: string) => Effect.die(new Error(`${what} is not part of the status benchmark`));
  // The store is `redis` (a target) since Sentinel and Cluster; `redisUrl` is what older
  // checkouts read, so a comparison with one still runs both on Redis.
  const { redisUrl } = settings;
  // The per-client protection limit out of the way (wrk is one client): a ceiling now, a field
  // (`protectionRps`) in older checkouts.
  const { ceilings } = defaultConfig();
  const config = defaultConfig({
    protectionRps: 1_000_000_000,
    ...(ceilings === undefined ? {} : { ceilings: { ...ceilings, "protection-limit": 1_000_000 } }),
    ...settings,
    ...(redisUrl === undefined ? {} : { redis: { kind: "url", url: redisUrl } }),
  });
  const chain = {
    network: "devnet" as const,
    usdcMint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    rpcUrl: "http://127.0.0.1:9/unused",
    walletSecretKey: undefined,
  };
  // The real logger, as `npm start` has it: every request writes its access line to stdout (the
  // benchmarks send stdout to /dev/null, so they measure the service, not a terminal).
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
  return { app, logger, runtime };
};
