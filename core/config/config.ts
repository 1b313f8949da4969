/**
 * Configuration from the environment: the service's settings (one Schema, core/config/config-service.ts)
 * decoded in one pass, then the rules across variables, then the value the service uses. A bad
 * config yields one ConfigError listing every problem. Secret values are `Redacted` and are
 * never part of a problem text.
 *
 * Modes: with no chain variables the service runs a local demo chain; with no LLM key it
 * answers extractively; with no vector settings it uses the local on-disk index.
 */
import type * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import type { CeilingLimits } from "../ceilings/ceilings.ts";
import { ceilingLimitsOf } from "../ceilings/read-ceilings.ts";
import type { TrustProxy } from "../trust-proxy.ts";
import { type ChainConfig, chainOf } from "./config-chain.ts";
import { type DocsSiteConfig, docsSiteOf } from "./config-docs-site.ts";
import { ConfigError } from "./config-fields.ts";
import { type InsightsConfig, insightsOf } from "./config-insights.ts";
import type { McpToolPrices } from "./config-mcp.ts";
import { type RedisTarget, redisOf, waitReplicasOf } from "./config-redis.ts";
import { decodeSettings, type Env, type Settings } from "./config-service.ts";
import { defaultSiteOf } from "./config-site-default.ts";
import { type SurfaceConfig, surfaceOf } from "./config-surface.ts";
import { type X402Config, x402Of } from "./config-x402.ts";
import { type X402AgentsConfig, x402AgentsOf } from "./config-x402-agents.ts";

export type { ChainConfig } from "./config-chain.ts";
export type { DocsSiteConfig } from "./config-docs-site.ts";
export { ConfigError, isOrigin, normalizeOrigin } from "./config-fields.ts";
export type { InsightsConfig } from "./config-insights.ts";
export type { RedisNode, RedisTarget } from "./config-redis.ts";
export type { Env } from "./config-service.ts";
export type { SurfaceConfig } from "./config-surface.ts";

export type VectorConfig =
  | { readonly kind: "local"; readonly indexPath: string }
  | {
      readonly kind: "chroma";
      readonly url: string | undefined;
      readonly apiKey: Redacted.Redacted<string> | undefined;
      readonly collection: string;
    };

export interface AppConfig {
  /** Address to listen on: 127.0.0.1 by default, 0.0.0.0 in the container image. */
  readonly host: string;
  readonly port: number;
  /** The site's free questions a day (the default site's: the free-questions ceiling). */
  readonly freeQueries: number;
  readonly allowedOrigins: ReadonlyArray<string>;
  readonly trustProxy: TrustProxy;
  /** The Redis of the store (a URL, Sentinel or a cluster); undefined: the memory store. */
  readonly redis: RedisTarget | undefined;
  /** Replicas each money write waits for (Redis WAIT) before it is acknowledged; 0: none. */
  readonly redisWaitReplicas: number;
  readonly redisWaitTimeoutMs: number;
  readonly allowVolatileStoreOnMainnet: boolean;
  /** undefined: local demo chain. */
  readonly chain: ChainConfig | undefined;
  readonly memoRequired: boolean;
  readonly llm:
    | {
        readonly apiKey: Redacted.Redacted<string>;
        readonly model: string;
        readonly baseUrl: string | undefined;
        /** The product the prompt names (a hosted site's `productName`); undefined: "this site". */
        readonly productName?: string | undefined;
      }
    | undefined;
  readonly vector: VectorConfig;
  readonly embeddingModel: string | undefined;
  /** The docs' language (DOCS_LANGUAGE, ISO 639-1); undefined: detected when they are indexed. */
  readonly docsLanguage: string | undefined;
  /** The owner's console and what it records (core/config/config-insights.ts). */
  readonly insights: InsightsConfig;
  /** x402 v2: the fee payer and the facilitator endpoints (core/config/config-x402.ts). */
  readonly x402: X402Config;
  /** Signed offers and receipts, and the service as catalogues show it (core/config/config-x402-agents.ts). */
  readonly x402Agents: X402AgentsConfig;
  /** The public surface: public origin, metrics token, body deadline, host names (core/config/config-surface.ts). */
  readonly surface: SurfaceConfig;
  /** The price of one question in USDC base units (PRICE_PER_QUESTION; default 1000n, 0.001 USDC). */
  readonly unitsPerQuery?: bigint;
  /** Questions each MCP tool call takes from the client's quota; 0: free (core/config/config-mcp.ts). */
  readonly mcpToolPrices: McpToolPrices;
  /** The docs site kept in sync in the background, and the crawler's settings (core/config/config-docs-site.ts). */
  readonly docsSite: DocsSiteConfig;
  /** SITES_FILE: the path of the file listing more docs sites; undefined: one site. */
  readonly sitesFile: string | undefined;
  /** Every ceiling's limit in force (core/ceilings/ceilings.ts). */
  readonly ceilings: CeilingLimits;
}

export const DEFAULT_LLM_MODEL = "llama-3.1-8b-instant";
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_INDEX_PATH = ".data/index.bin";

type Text = (name: string) => string | undefined;

const vectorOf = (s: Settings, text: Text, problems: string[]): VectorConfig => {
  // Decided on presence, not validity, so a malformed CHROMA_URL still reports a missing index name.
  if (text("CHROMA_URL") === undefined && s.VECTOR_API_KEY === undefined)
    return { kind: "local", indexPath: s.INDEX_PATH ?? DEFAULT_INDEX_PATH };
  if (s.VECTOR_INDEX_NAME === undefined)
    problems.push("VECTOR_INDEX_NAME: required with CHROMA_URL or VECTOR_API_KEY");
  return {
    kind: "chroma",
    url: s.CHROMA_URL,
    apiKey: s.VECTOR_API_KEY,
    collection: s.VECTOR_INDEX_NAME ?? "",
  };
};

/** Reads and validates the whole configuration. */
export const parseConfig = (env: Env): Result.Result<AppConfig, ConfigError> => {
  const { settings: s, text, problems } = decodeSettings(env);
  const site = defaultSiteOf(s);
  const ceilings = ceilingLimitsOf(s);
  const config: AppConfig = {
    host: s.HOST ?? DEFAULT_HOST,
    port: s.PORT ?? 3000,
    freeQueries: ceilings["free-questions"],
    allowedOrigins: site.allowedOrigins,
    trustProxy: s.TRUST_PROXY ?? { kind: "none" },
    redis: redisOf(s, text, problems),
    redisWaitReplicas: waitReplicasOf(s),
    redisWaitTimeoutMs: s.REDIS_WAIT_TIMEOUT_MS ?? 1000,
    allowVolatileStoreOnMainnet: s.ALLOW_MEMORY_STORE_ON_MAINNET ?? false,
    chain: chainOf(s, text, problems),
    memoRequired: s.PAYMENT_MEMO_REQUIRED ?? false,
    llm:
      s.LLM_API_KEY === undefined
        ? undefined
        : { apiKey: s.LLM_API_KEY, model: s.LLM_MODEL ?? DEFAULT_LLM_MODEL, baseUrl: s.LLM_BASE_URL },
    vector: vectorOf(s, text, problems),
    embeddingModel: s.EMBEDDING_MODEL,
    docsLanguage: site.docsLanguage,
    insights: insightsOf(s),
    x402: x402Of(s, text, problems),
    x402Agents: x402AgentsOf(s),
    surface: surfaceOf(s),
    mcpToolPrices: site.mcpToolPrices,
    unitsPerQuery: site.unitsPerQuery,
    docsSite: docsSiteOf(s, site.docsUrl, text, problems),
    sitesFile: s.SITES_FILE,
    ceilings,
  };
  return problems.length === 0 ? Result.succeed(config) : Result.fail(new ConfigError({ problems }));
};
