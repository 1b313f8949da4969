/**
 * The composition root: every port bound to the adapter the configuration picks, composed once
 * here for the service, the tests and the benchmarks (which swap single parts, such as a
 * scripted chain, through `parts`). The app itself never branches on "memory or Redis", "Groq
 * or extractive": it receives one layer.
 */
import { Context, Effect, Layer, Result } from "effect";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import * as MemoryConversations from "../../adapters/conversations-memory/index.ts";
import { type CacheOutcome, generatorLayerFromConfig } from "../../adapters/llm-fallback/index.ts";
import { describeIndex, retrievalLayerFromConfig } from "../../adapters/retrieval-config/index.ts";
import { MemoryAnswerCache, MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisAnswerCache, RedisStore } from "../../adapters/store-redis/index.ts";
import { type AppConfig, type ChainConfig, parseConfig } from "../../core/config.ts";
import * as PaymentSettings from "../../core/payment-settings.ts";
import type { ChainReader } from "../../core/ports/chain-reader.ts";
import type { Generator } from "../../core/ports/generator.ts";
import type { PaymentStore } from "../../core/ports/payment-store.ts";
import type { QuotaStore } from "../../core/ports/quota-store.ts";
import type { Retriever } from "../../core/ports/retrieval.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import type { Logger } from "../observability/log.ts";

/** Reservation lease: above ANSWER_DEADLINE (core/use-cases/ask-question.ts), so no hold lapses mid-answer. */
export const HOLD_TTL_MS = 120_000;

export const quotaLimits = (config: Pick<AppConfig, "freeQueries" | "paidDailyCap">): QuotaLimits => ({
  freePerDay: config.freeQueries,
  paidDailyCap: config.paidDailyCap,
  holdTtlMs: HOLD_TTL_MS,
});

/** The configuration as a service, so adapter choices read as layers over it. */
export class AppSettings extends Context.Service<AppSettings, AppConfig>()("src/runtime/AppSettings") {}

type StoreLayer = Layer.Layer<QuotaStore | PaymentStore, unknown, never>;

/** The store REDIS_URL names, or the volatile memory store. */
const configuredStore = (logger: Logger) =>
  Layer.unwrap(
    Effect.map(AppSettings, (config): StoreLayer => {
      const limits = quotaLimits(config);
      if (config.redisUrl === undefined) return MemoryStore.layer(limits);
      return RedisStore.layer({
        url: config.redisUrl,
        limits,
        onUnverifiedEviction: () =>
          logger.warn("cannot read Redis maxmemory-policy (CONFIG disabled): make sure it is noeviction"),
      });
    }),
  );

/** The answer cache: shared on Redis when REDIS_URL is set, else bounded in this process. */
const configuredAnswerCache = (config: AppConfig) =>
  config.redisUrl === undefined
    ? MemoryAnswerCache.layer()
    : RedisAnswerCache.layer({ url: config.redisUrl }).pipe(Layer.orDie);

/** What the composition reports besides log lines (metrics). */
export interface AppEvents {
  readonly onAnswerCache?: ((outcome: CacheOutcome) => void) | undefined;
}

/** Parts a test or benchmark binds itself instead of the configured adapter. */
export interface AppParts {
  readonly store?: StoreLayer;
  readonly chain?: Layer.Layer<ChainReader, unknown>;
  readonly retrieval?: Layer.Layer<Retriever, unknown>;
  readonly generator?: Layer.Layer<Generator, unknown>;
}

/**
 * Every service the app needs, for the given config and the chain it takes payments on. The
 * payment settings are built over the store, whose durability they read.
 */
export const appLayer = (
  config: AppConfig,
  chain: ChainConfig,
  logger: Logger,
  parts: AppParts = {},
  events: AppEvents = {},
) => {
  const store = parts.store ?? configuredStore(logger);
  const settings = PaymentSettings.layer({
    network: chain.network,
    usdcMint: chain.usdcMint,
    wallet: chain.wallet,
    memoRequired: config.memoRequired,
    paidDailyCap: config.paidDailyCap,
  });
  return Layer.mergeAll(
    Layer.provideMerge(settings, store),
    parts.chain ?? ChainSolana.layer({ rpcUrl: chain.rpcUrl }),
    parts.retrieval ??
      retrievalLayerFromConfig(config, {
        onLoad: ({ reason, ...loaded }) =>
          logger.info(reason === "start" ? "index loaded" : "index reloaded after an ingest", {
            where: describeIndex(config.vector),
            ...loaded,
          }),
        onReloadFailed: (message) =>
          logger.warn("a new index could not be loaded; still serving the previous one", { message }),
      }),
    parts.generator ??
      generatorLayerFromConfig(config, {
        onFallback: (event) => logger.warn("LLM failed, answered extractively", { reason: event.reason }),
        onCache: (outcome) => {
          if (outcome === "rescued") logger.warn("LLM failed, answered from the answer cache");
          events.onAnswerCache?.(outcome);
        },
        cache: configuredAnswerCache(config),
      }),
    MemoryConversations.layer(),
  ).pipe(Layer.provide(Layer.succeed(AppSettings)(config)));
};

/** The embedded defaults (what `npm start` runs with no variables), with some fields replaced. */
export const defaultConfig = (overrides: Partial<AppConfig> = {}): AppConfig => ({
  ...Result.getOrThrow(parseConfig({})),
  ...overrides,
});
