/**
 * The composition root: every port bound to the adapter the configuration picks, composed once
 * here for the service, the tests and the benchmarks (which swap single parts, such as a
 * scripted chain, through `parts`). The app itself never branches on "memory or Redis", "Groq
 * or extractive": it receives one layer.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Result from "effect/Result";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import type { CacheOutcome } from "../../adapters/llm-fallback/index.ts";
import { WebCryptoRandom } from "../../adapters/secure-random/index.ts";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { VisitorHash } from "../../adapters/visitor-hash/index.ts";
import {
  AllSitesFreeQuestions,
  CeilingLimitsInForce,
  type CeilingName,
  LargestSiteFreeQuestions,
} from "../../core/ceilings/ceilings.ts";
import { CeilingRefusals } from "../../core/ceilings/refusals.ts";
import { type AppConfig, type ChainConfig, parseConfig } from "../../core/config/config.ts";
import { InsightsSettings } from "../../core/insights/insights-settings.ts";
import { CHAIN_LOOKUPS_PER_PAYMENT, ChainLookupLimits } from "../../core/payments/chain-lookup-budget.ts";
import * as PaymentSettings from "../../core/payments/payment-settings.ts";
import { DEFAULT_SITE, siteMemoPrefix } from "../../core/payments/payment-settings.ts";
import type { ChainReader } from "../../core/ports/chain-reader.ts";
import type { Generator } from "../../core/ports/generator.ts";
import type { Retriever } from "../../core/ports/retrieval.ts";
import type { StoreServices } from "../../core/ports/store-services.ts";
import type { TransferAttribution } from "../../core/ports/transfer-attribution.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import { SessionCeilings } from "../../core/sign-in/session-ceilings.ts";
import type { Logger } from "../observability/log.ts";
import type { OnRpcCall } from "../solana/rpc-calls.ts";
import {
  answerCacheLayerWith,
  describeIndex,
  generatorLayer,
  lazily,
  retrievalLayerWith,
} from "./adapter-layers.ts";
import { AppSettings } from "./app-settings.ts";

/** Reservation lease: above ANSWER_DEADLINE (core/use-cases/ask-question.ts), so no hold lapses mid-answer. */
export const HOLD_TTL_MS = 120_000;

export const quotaLimits = (config: Pick<AppConfig, "freeQueries" | "ceilings">): QuotaLimits => ({
  freePerDay: config.freeQueries,
  paidDailyCap: config.ceilings["paid-daily-cap"],
  holdTtlMs: HOLD_TTL_MS,
});

type StoreLayer = Layer.Layer<StoreServices, unknown, never>;

/**
 * The store REDIS_URL names, or the volatile memory store. The Redis adapter (and ioredis,
 * about 15 MB resident) is loaded only when it is configured.
 */
const configuredStore = (logger: Logger, events: AppEvents, keyPrefix: string | undefined) =>
  Layer.unwrap(
    Effect.flatMap(AppSettings, (config): Effect.Effect<StoreLayer> => {
      const limits = quotaLimits(config);
      const insights = {
        retentionMs: config.insights.retentionMs,
        maxEvents: config.ceilings["insights-events"],
      };
      const { redis } = config;
      if (redis === undefined) return Effect.succeed(MemoryStore.layer(limits, insights));
      return Effect.map(
        lazily(() => import("../../adapters/store-redis/index.ts")),
        ({ RedisStore }) =>
          RedisStore.layer({
            url: redis,
            // A hosted site's store takes the process's shared connection (shared-connection.ts).
            // Its used signatures are the service's: one transfer pays once on any site.
            ...(keyPrefix === undefined
              ? {}
              : { keyPrefix, shareConnection: true, ledgerPrefix: RedisStore.DEFAULT_KEY_PREFIX }),
            limits,
            insights,
            waitReplicas: config.redisWaitReplicas,
            waitTimeoutMs: config.redisWaitTimeoutMs,
            onRoundTrip: events.onStoreRoundTrip,
            onUnverifiedEviction: () =>
              logger.warn("cannot read Redis maxmemory-policy (CONFIG disabled): make sure it is noeviction"),
          }),
      );
    }),
  );

/** Settings the store reads when it is built (its eviction order's cap). */
const sessionCeilingsOf = (config: AppConfig) =>
  Layer.succeed(SessionCeilings)({
    maxCreditlessSessions: config.ceilings["creditless-sessions"],
  });

/**
 * The store `config` names, on its own: a hosted site's store is built once and outlives the
 * site's runtime (a reload of the sites file must not drop the memory store's credits).
 */
export const storeLayerFor = (config: AppConfig, logger: Logger, events: AppEvents, keyPrefix: string) =>
  configuredStore(logger, events, keyPrefix).pipe(
    Layer.provide(Layer.mergeAll(Layer.succeed(AppSettings)(config), sessionCeilingsOf(config))),
  );

/** What the composition reports besides log lines (metrics). */
export interface AppEvents {
  readonly onAnswerCache?: ((outcome: CacheOutcome) => void) | undefined;
  /** Each call the chain reader sends to the RPC (chain_rpc_calls_total). */
  readonly onRpcCall?: OnRpcCall | undefined;
  /** Each round trip to Redis, by command (store_round_trips_total); the memory store makes none. */
  readonly onStoreRoundTrip?: ((command: string) => void) | undefined;
  /** Each refusal by a ceiling a use case meets (ceiling_refusals_total). */
  readonly onCeilingRefused?: ((ceiling: CeilingName) => void) | undefined;
}

/** Parts a test or benchmark binds itself instead of the configured adapter. */
export interface AppParts {
  readonly store?: StoreLayer;
  readonly chain?: Layer.Layer<ChainReader, unknown>;
  readonly retrieval?: Layer.Layer<Retriever, unknown>;
  readonly generator?: Layer.Layer<Generator, unknown>;
  /** The site this runtime serves (its memos name it); default the default site. */
  readonly site?: string;
  /** Namespace of the store's and the answer cache's Redis keys (a hosted site's); default "docs-chat:". */
  readonly keyPrefix?: string;
  /** When `store` was built (a hosted site's outlives its runtimes): a volatile ledger's start; default now. */
  readonly ledgerStart?: number;
  /** Whose a transfer is among the service's sites (a hosted site's; src/sites/site-attribution.ts). */
  readonly attribution?: Layer.Layer<TransferAttribution>;
  /**
   * The largest free questions of the service's sites and all of them together
   * (src/sites/site-free-questions.ts), the same for every site; default this site's own (a
   * runtime built alone, as tests do).
   */
  readonly sitesFree?: { readonly largest: () => number; readonly total: () => number };
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
  const store = parts.store ?? configuredStore(logger, events, parts.keyPrefix);
  const settings = PaymentSettings.layer({
    network: chain.network,
    usdcMint: chain.usdcMint,
    wallet: chain.wallet,
    memoRequired: config.memoRequired,
    paidDailyCap: config.ceilings["paid-daily-cap"],
    unitsPerQuery: config.unitsPerQuery,
    ledgerStart: parts.ledgerStart,
    memoPrefix: siteMemoPrefix(parts.site ?? DEFAULT_SITE),
  });
  return Layer.mergeAll(
    Layer.provideMerge(settings, store),
    parts.chain ??
      ChainSolana.layer({
        rpcUrl: chain.rpcUrl,
        ...(events.onRpcCall === undefined ? {} : { onRpcCall: events.onRpcCall }),
      }),
    parts.retrieval ??
      retrievalLayerWith({
        onLoad: ({ reason, files, chunks, version, language }) => {
          logger.info(reason === "start" ? "index loaded" : "index reloaded after an ingest", {
            where: describeIndex(config.vector),
            files,
            chunks,
            version,
            language,
          });
          // A local index keeps the analysis it was built with until the next ingest writes it again.
          if (config.docsLanguage !== undefined && config.docsLanguage !== language && chunks > 0)
            logger.warn(
              "the index was analysed in another language than DOCS_LANGUAGE; run npm run ingest again",
              {
                indexed: language,
                configured: config.docsLanguage,
              },
            );
        },
        onReloadFailed: (message) =>
          logger.warn("a new index could not be loaded; still serving the previous one", { message }),
      }),
    parts.generator ??
      generatorLayer({
        ...(parts.keyPrefix === undefined ? {} : { cache: answerCacheLayerWith(parts.keyPrefix) }),
        onFallback: (event) => logger.warn("LLM failed, answered extractively", { reason: event.reason }),
        onCache: (outcome) => {
          if (outcome === "rescued") logger.warn("LLM failed, answered from the answer cache");
          events.onAnswerCache?.(outcome);
        },
      }),
    parts.attribution ?? Layer.empty,
    VisitorHash.layer(config.insights.salt),
    WebCryptoRandom.layer,
    Layer.succeed(InsightsSettings)({ redaction: config.insights.redaction }),
    Layer.succeed(CeilingLimitsInForce)(config.ceilings),
    Layer.succeed(LargestSiteFreeQuestions)(parts.sitesFree?.largest ?? (() => config.freeQueries)),
    Layer.succeed(AllSitesFreeQuestions)(parts.sitesFree?.total ?? (() => config.freeQueries)),
    Layer.succeed(CeilingRefusals)({ refused: (ceiling) => events.onCeilingRefused?.(ceiling) }),
    Layer.succeed(ChainLookupLimits)({
      perClientPerMinute: config.ceilings["chain-lookups-per-client"],
      perMinute: config.ceilings["chain-lookups"],
      perPayment: CHAIN_LOOKUPS_PER_PAYMENT,
    }),
  ).pipe(Layer.provide(Layer.mergeAll(Layer.succeed(AppSettings)(config), sessionCeilingsOf(config))));
};

/** The embedded defaults (what `npm start` runs with no variables), with some fields replaced. */
export const defaultConfig = (overrides: Partial<AppConfig> = {}): AppConfig => ({
  ...Result.getOrThrow(parseConfig({})),
  ...overrides,
});
