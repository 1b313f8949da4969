/**
 * Configuration from the environment, validated in one pass: a bad config yields one
 * ConfigError listing every bad variable. Secret values are wrapped in `Redacted` and are
 * never part of a problem text.
 *
 * Modes: with no chain variables the service runs a local demo chain; with no LLM key it
 * answers extractively; with no vector settings it uses the local on-disk index.
 */
import { Redacted, Result, Schema } from "effect";
import { decodeBase58, encodeBase58 } from "./base58.ts";
import { CHAIN_NETWORKS, type ChainNetwork, DEFAULT_RPC_URL } from "./network.ts";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.ts";

export type Env = Readonly<Record<string, string | undefined>>;

export interface ChainConfig {
  readonly network: ChainNetwork;
  readonly usdcMint: string;
  readonly wallet: string;
  readonly rpcUrl: string;
  readonly walletSecretKey: Redacted.Redacted<Uint8Array> | undefined;
}

export type VectorConfig =
  | { readonly kind: "local"; readonly indexPath: string }
  | {
      readonly kind: "chroma";
      readonly url: string | undefined;
      readonly apiKey: Redacted.Redacted<string> | undefined;
      readonly collection: string;
    };

export interface AppConfig {
  readonly port: number;
  readonly freeQueries: number;
  readonly paidDailyCap: number;
  readonly allowedOrigins: ReadonlyArray<string>;
  readonly trustProxy: TrustProxy;
  readonly protectionRps: number;
  readonly redisUrl: Redacted.Redacted<string> | undefined;
  readonly allowVolatileStoreOnMainnet: boolean;
  /** undefined: local demo chain. */
  readonly chain: ChainConfig | undefined;
  readonly memoRequired: boolean;
  readonly llm:
    | {
        readonly apiKey: Redacted.Redacted<string>;
        readonly model: string;
        readonly baseUrl: string | undefined;
      }
    | undefined;
  readonly llmModel: string;
  readonly vector: VectorConfig;
  readonly embeddingModel: string | undefined;
}

export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  problems: Schema.Array(Schema.String),
}) {
  override get message(): string {
    return `Invalid configuration:\n${this.problems.map((problem) => `  - ${problem}`).join("\n")}`;
  }
}

export const DEFAULT_LLM_MODEL = "llama-3.1-8b-instant";
export const DEFAULT_INDEX_PATH = ".data/index.json";

const BASE58_ADDRESS = (text: string): boolean => decodeBase58(text)?.length === 32;

/** Collects problems while reading variables, so all of them are reported at once. */
const reader = (env: Env) => {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const value = text(name);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (/^\d+$/.test(value) && n >= min && n <= max) return n;
    problems.push(`${name}: must be a whole number from ${min} to ${max} (got "${value}")`);
    return fallback;
  };
  const flag = (name: string): boolean => {
    const value = text(name)?.toLowerCase();
    if (value === undefined || value === "false" || value === "0") return false;
    if (value === "true" || value === "1") return true;
    problems.push(`${name}: must be true or false (got "${value}")`);
    return false;
  };
  const url = (name: string, secret = false): string | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (URL.canParse(value)) return value;
    problems.push(
      secret ? `${name}: is not a valid URL (value hidden)` : `${name}: is not a valid URL (got "${value}")`,
    );
    return undefined;
  };
  return { problems, text, integer, flag, url };
};

const parseOrigins = (value: string | undefined, problems: string[]): ReadonlyArray<string> => {
  const origins = (value ?? "")
    .split(",")
    .map((origin) => origin.trim().replace(/\/$/, ""))
    .filter((origin) => origin !== "");
  for (const origin of origins) {
    const ok = !origin.includes("*") && URL.canParse(origin) && new URL(origin).origin === origin;
    if (!ok)
      problems.push(
        `ALLOWED_ORIGINS: "${origin}" is not an origin like https://docs.example.com (no wildcard, no path)`,
      );
  }
  return origins;
};

/** A Solana secret key: JSON list of 64 byte values whose last 32 are the wallet's public key. */
const parseSecretKey = (value: string, wallet: string | undefined, problems: string[]) => {
  const bad = (why: string) => {
    problems.push(`PAYMENT_WALLET_SECRET_KEY: ${why} (value hidden)`);
    return undefined;
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return bad("must be a JSON list of 64 numbers from 0 to 255");
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 64 ||
    !parsed.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
  ) {
    return bad("must be a JSON list of 64 numbers from 0 to 255");
  }
  const bytes = Uint8Array.from(parsed as number[]);
  if (wallet !== undefined && encodeBase58(bytes.slice(32)) !== wallet) {
    return bad("does not belong to PAYMENT_WALLET_ADDRESS");
  }
  return Redacted.make(bytes);
};

const parseChain = (read: ReturnType<typeof reader>): ChainConfig | undefined => {
  const { problems, text } = read;
  const network = text("CHAIN_NETWORK");
  const usdcMint = text("USDC_MINT_ADDRESS");
  const wallet = text("PAYMENT_WALLET_ADDRESS");
  const rpcUrl = read.url("SOLANA_RPC_URL", true);
  const secret = text("PAYMENT_WALLET_SECRET_KEY");
  const before = problems.length;
  if (network === undefined && usdcMint === undefined && wallet === undefined) {
    if (secret !== undefined)
      problems.push("PAYMENT_WALLET_SECRET_KEY: set without PAYMENT_WALLET_ADDRESS (value hidden)");
    // A lone RPC URL would otherwise be ignored silently and the demo chain used instead.
    if (text("SOLANA_RPC_URL") !== undefined)
      problems.push(
        "SOLANA_RPC_URL: set without CHAIN_NETWORK, USDC_MINT_ADDRESS and PAYMENT_WALLET_ADDRESS",
      );
    return undefined;
  }
  if (network === undefined) problems.push("CHAIN_NETWORK: required when a payment wallet or mint is set");
  else if (!CHAIN_NETWORKS.includes(network as ChainNetwork))
    problems.push(`CHAIN_NETWORK: must be one of ${CHAIN_NETWORKS.join(", ")} (got "${network}")`);
  if (usdcMint === undefined) problems.push("USDC_MINT_ADDRESS: required with CHAIN_NETWORK");
  else if (!BASE58_ADDRESS(usdcMint))
    problems.push(`USDC_MINT_ADDRESS: not a base58 address (got "${usdcMint}")`);
  if (wallet === undefined) problems.push("PAYMENT_WALLET_ADDRESS: required with CHAIN_NETWORK");
  else if (!BASE58_ADDRESS(wallet))
    problems.push(`PAYMENT_WALLET_ADDRESS: not a base58 address (got "${wallet}")`);
  const chainNetwork = network as ChainNetwork;
  const resolvedRpc = rpcUrl ?? DEFAULT_RPC_URL[chainNetwork];
  if (network === "localnet" && rpcUrl === undefined)
    problems.push("SOLANA_RPC_URL: required when CHAIN_NETWORK=localnet");
  const walletSecretKey = secret === undefined ? undefined : parseSecretKey(secret, wallet, problems);
  if (problems.length > before || usdcMint === undefined || wallet === undefined || resolvedRpc === undefined)
    return undefined;
  return { network: chainNetwork, usdcMint, wallet, rpcUrl: resolvedRpc, walletSecretKey };
};

const parseVector = (read: ReturnType<typeof reader>): VectorConfig => {
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

/** Reads and validates the whole configuration. */
export const parseConfig = (env: Env): Result.Result<AppConfig, ConfigError> => {
  const read = reader(env);
  const { problems, text } = read;
  const redisUrl = read.url("REDIS_URL", true);
  const trustProxy = parseTrustProxy(text("TRUST_PROXY"));
  if (typeof trustProxy === "string") problems.push(`TRUST_PROXY: ${trustProxy}`);
  const apiKey = text("LLM_API_KEY");
  const llmModel = text("LLM_MODEL") ?? DEFAULT_LLM_MODEL;
  const config: AppConfig = {
    port: read.integer("PORT", 3000, 0, 65535),
    freeQueries: read.integer("RATE_LIMIT_FREE_QUERIES", 3, 0, 1_000_000),
    paidDailyCap: read.integer("PAID_DAILY_CAP", 1000, 1, 1_000_000),
    allowedOrigins: parseOrigins(text("ALLOWED_ORIGINS"), problems),
    trustProxy: typeof trustProxy === "string" ? { kind: "none" } : trustProxy,
    protectionRps: read.integer("PROTECTION_RATE_LIMIT", 100, 1, 1_000_000),
    redisUrl: redisUrl === undefined ? undefined : Redacted.make(redisUrl),
    allowVolatileStoreOnMainnet: read.flag("ALLOW_MEMORY_STORE_ON_MAINNET"),
    chain: parseChain(read),
    memoRequired: read.flag("PAYMENT_MEMO_REQUIRED"),
    llm:
      apiKey === undefined
        ? undefined
        : { apiKey: Redacted.make(apiKey), model: llmModel, baseUrl: read.url("LLM_BASE_URL") },
    llmModel,
    vector: parseVector(read),
    embeddingModel: text("EMBEDDING_MODEL"),
  };
  if (
    config.chain?.network === "mainnet-beta" &&
    config.redisUrl === undefined &&
    !config.allowVolatileStoreOnMainnet
  ) {
    problems.push(
      "REDIS_URL: required on mainnet-beta (the memory store forgets paid credits on restart); set ALLOW_MEMORY_STORE_ON_MAINNET=true to override",
    );
  }
  return problems.length === 0 ? Result.succeed(config) : Result.fail(new ConfigError({ problems }));
};
