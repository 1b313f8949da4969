/**
 * Configuration from the environment, validated in one pass: a bad config yields one
 * ConfigError listing every bad variable. Secret values are wrapped in `Redacted` and are
 * never part of a problem text.
 *
 * Modes: with no chain variables the service runs a local demo chain; with no LLM key it
 * answers extractively; with no vector settings it uses the local on-disk index.
 */
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import type { CeilingLimits } from "./ceilings/ceilings.ts";
import { readCeilings } from "./ceilings/read-ceilings.ts";
import { type ChainConfig, parseChain } from "./config-chain.ts";
import { type DocsSiteConfig, parseDocsSite } from "./config-docs-site.ts";
import { ConfigError } from "./config-fields.ts";
import { type InsightsConfig, parseInsights } from "./config-insights.ts";
import type { McpToolPrices } from "./config-mcp.ts";
import { type Env, type Reader, reader } from "./config-reader.ts";
import { decodeDefaultSite } from "./config-site.ts";
import { parseSurface, type SurfaceConfig } from "./config-surface.ts";
import { parseX402, type X402Config } from "./config-x402.ts";
import { parseX402Agents, type X402AgentsConfig } from "./config-x402-agents.ts";
import { parseIp } from "./ip.ts";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.ts";

export type { ChainConfig } from "./config-chain.ts";
export type { DocsSiteConfig } from "./config-docs-site.ts";
export { ConfigError, isOrigin, normalizeOrigin } from "./config-fields.ts";
export type { InsightsConfig } from "./config-insights.ts";
export type { Env } from "./config-reader.ts";
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
  readonly freeQueries: number;
  readonly paidDailyCap: number;
  readonly allowedOrigins: ReadonlyArray<string>;
  readonly trustProxy: TrustProxy;
  readonly protectionRps: number;
  readonly redisUrl: Redacted.Redacted<string> | undefined;
  /** Replicas each payment claim waits for (Redis WAIT) before it is acknowledged; 0: none. */
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
  /**
   * The docs' language (DOCS_LANGUAGE, ISO 639-1): how they and the questions are cut into
   * words. Undefined: detected from the docs when they are indexed.
   */
  readonly docsLanguage: string | undefined;
  /** The owner's console and what it records (core/config-insights.ts). */
  readonly insights: InsightsConfig;
  /** x402 v2: the fee payer and the facilitator endpoints (core/config-x402.ts). */
  readonly x402: X402Config;
  /** Signed offers and receipts, and the service as catalogues show it (core/config-x402-agents.ts). */
  readonly x402Agents: X402AgentsConfig;
  /** The public surface: public origin, metrics token, body deadline, per-client caps (core/config-surface.ts). */
  readonly surface: SurfaceConfig;
  /**
   * The price of one question in USDC base units (core/payments/question-price.ts); parseConfig
   * gives 1000n (0.001 USDC) unless PRICE_PER_QUESTION says otherwise; absent: the same default.
   */
  readonly unitsPerQuery?: bigint;
  /** Questions each MCP tool call takes from the client's quota; 0: free (core/config-mcp.ts). */
  readonly mcpToolPrices: McpToolPrices;
  /** The docs site kept in sync in the background, and the crawler's bounds (core/config-docs-site.ts). */
  readonly docsSite: DocsSiteConfig;
  /** SITES_FILE: the path of the file listing more docs sites (core/config-site.ts); undefined: one site. */
  readonly sitesFile: string | undefined;
  /** Memory the sites' loaded indexes may hold together, in MiB; past it the least recently used is dropped. */
  readonly sitesMemoryMb: number;
  /** Every ceiling's limit in force (core/ceilings/ceilings.ts); absent: the defaults. */
  readonly ceilings?: CeilingLimits;
}

export const DEFAULT_LLM_MODEL = "llama-3.1-8b-instant";
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_INDEX_PATH = ".data/index.bin";

const parseVector = (read: Reader): VectorConfig => {
  const chromaUrl = read.url("CHROMA_URL");
  const apiKey = read.text("VECTOR_API_KEY");
  const collection = read.text("VECTOR_INDEX_NAME");
  // Decided on presence, not validity, so a malformed CHROMA_URL still reports a missing index name.
  if (read.text("CHROMA_URL") === undefined && apiKey === undefined) {
    return { kind: "local", indexPath: read.text("INDEX_PATH") ?? DEFAULT_INDEX_PATH };
  }
  if (collection === undefined)
    read.problems.push("VECTOR_INDEX_NAME: required with CHROMA_URL or VECTOR_API_KEY");
  return {
    kind: "chroma",
    url: chromaUrl,
    apiKey: apiKey === undefined ? undefined : Redacted.make(apiKey),
    collection: collection ?? "",
  };
};

const HOST_NAME =
  /^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

const parseHost = (value: string | undefined, problems: string[]): string => {
  if (value === undefined) return DEFAULT_HOST;
  if (parseIp(value) !== undefined || HOST_NAME.test(value)) return value;
  problems.push(`HOST: must be an IP address or a host name, e.g. 0.0.0.0 or 127.0.0.1 (got "${value}")`);
  return DEFAULT_HOST;
};

/**
 * Rules that hold across variables, checked on the raw text so they are listed even when the
 * variables they depend on are themselves invalid (one message names every problem).
 */
const crossChecks = (read: Reader, config: AppConfig) => {
  const { problems, text } = read;
  if (
    text("CHAIN_NETWORK") === "mainnet-beta" &&
    text("REDIS_URL") === undefined &&
    !config.allowVolatileStoreOnMainnet
  ) {
    problems.push(
      "REDIS_URL: required on mainnet-beta (the memory store forgets paid credits on restart); set ALLOW_MEMORY_STORE_ON_MAINNET=true to override",
    );
  }
  if (text("REDIS_URL") === undefined && config.redisWaitReplicas > 0)
    problems.push("REDIS_WAIT_REPLICAS: needs REDIS_URL (replicas of which Redis?)");
};

/** Reads and validates the whole configuration. */
export const parseConfig = (env: Env): Result.Result<AppConfig, ConfigError> => {
  const read = reader(env);
  const { problems, text } = read;
  const redisUrl = read.url("REDIS_URL", true);
  const trustProxy = parseTrustProxy(text("TRUST_PROXY"));
  if (typeof trustProxy === "string") problems.push(`TRUST_PROXY: ${trustProxy}`);
  const apiKey = text("LLM_API_KEY");
  const llmModel = text("LLM_MODEL") ?? DEFAULT_LLM_MODEL;
  const ceilings = readCeilings(env);
  const site = decodeDefaultSite(text, problems);
  const config: AppConfig = {
    host: parseHost(text("HOST"), problems),
    port: read.integer("PORT", 3000, 0, 65535),
    freeQueries: site.freeQueries,
    paidDailyCap: read.integer("PAID_DAILY_CAP", 1000, 1, 1_000_000),
    allowedOrigins: site.allowedOrigins,
    trustProxy: typeof trustProxy === "string" ? { kind: "none" } : trustProxy,
    protectionRps: read.integer("PROTECTION_RATE_LIMIT", 100, 1, 1_000_000),
    redisUrl: redisUrl === undefined ? undefined : Redacted.make(redisUrl),
    redisWaitReplicas: read.integer("REDIS_WAIT_REPLICAS", 0, 0, 16),
    redisWaitTimeoutMs: read.integer("REDIS_WAIT_TIMEOUT_MS", 1000, 1, 60_000),
    allowVolatileStoreOnMainnet: read.flag("ALLOW_MEMORY_STORE_ON_MAINNET"),
    chain: parseChain(read),
    memoRequired: read.flag("PAYMENT_MEMO_REQUIRED"),
    llm:
      apiKey === undefined
        ? undefined
        : { apiKey: Redacted.make(apiKey), model: llmModel, baseUrl: read.url("LLM_BASE_URL") },
    vector: parseVector(read),
    embeddingModel: text("EMBEDDING_MODEL"),
    docsLanguage: site.docsLanguage,
    insights: parseInsights(read),
    x402: parseX402(read),
    x402Agents: parseX402Agents(read),
    surface: parseSurface(read),
    mcpToolPrices: site.mcpToolPrices,
    unitsPerQuery: site.unitsPerQuery,
    docsSite: parseDocsSite(read, site.docsUrl),
    sitesFile: text("SITES_FILE"),
    sitesMemoryMb: read.integer("SITES_MEMORY_MB", 512, 1, 1_000_000),
    ceilings: ceilings.limits,
  };
  // A variable read here and by the table (until the table is the only reader) is named once.
  for (const problem of ceilings.problems) if (!problems.includes(problem)) problems.push(problem);
  crossChecks(read, config);
  return problems.length === 0 ? Result.succeed(config) : Result.fail(new ConfigError({ problems }));
};
