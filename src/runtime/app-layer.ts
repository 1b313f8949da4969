/**
 * The composition root: every port bound to the adapter the configuration picks. The app
 * itself never branches on "memory or Redis", "Groq or extractive": it receives one layer.
 */
import { Layer } from "effect";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import * as MemoryConversations from "../../adapters/conversations-memory/index.ts";
import { generatorLayerFromConfig } from "../../adapters/llm-fallback/index.ts";
import { retrievalLayerFromConfig } from "../../adapters/retrieval-config/index.ts";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { AppConfig, ChainConfig } from "../../core/config.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import type { Logger } from "../observability/log.ts";

/** Reservation lease: above ANSWER_DEADLINE (core/use-cases/ask-question.ts), so no hold lapses mid-answer. */
export const HOLD_TTL_MS = 120_000;

export const quotaLimits = (config: AppConfig): QuotaLimits => ({
  freePerDay: config.freeQueries,
  paidDailyCap: config.paidDailyCap,
  holdTtlMs: HOLD_TTL_MS,
});

const storeLayer = (config: AppConfig, logger: Logger) =>
  config.redisUrl === undefined
    ? MemoryStore.layer(quotaLimits(config))
    : RedisStore.layer({
        url: config.redisUrl,
        limits: quotaLimits(config),
        onUnverifiedEviction: () =>
          logger.warn("cannot read Redis maxmemory-policy (CONFIG disabled): make sure it is noeviction"),
      });

/** Every service the app needs, for the given config and the chain it takes payments on. */
export const appLayer = (config: AppConfig, chain: ChainConfig, logger: Logger) =>
  Layer.mergeAll(
    storeLayer(config, logger),
    ChainSolana.layer({ rpcUrl: chain.rpcUrl }),
    retrievalLayerFromConfig(config),
    generatorLayerFromConfig(config, {
      onFallback: (event) => logger.warn("LLM failed, answered extractively", { reason: event.reason }),
    }),
    MemoryConversations.layer(),
  );
