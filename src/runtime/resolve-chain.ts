/**
 * Which chain payments are verified on: the one CHAIN_NETWORK & co. configure. Without one, a
 * program that runs the service may bring its own local chain (`npm start` does: a LiteSVM
 * demo chain from dev/demo/), so a new user can buy queries offline; the production entries
 * (src/main.ts, src/deno.ts, the container image) bring none and refuse to start.
 */
import type { KeyPairSigner } from "@solana/kit";
import type { AppConfig, ChainConfig } from "../../core/config/config.ts";
import { hostGuardOn } from "../http/edge/host-guard.ts";
import type { FundDemoWallet } from "../http/routes/demo-faucet.ts";
import type { Logger } from "../observability/log.ts";

/** No CHAIN_NETWORK, and this program brings no local chain (or it cannot be loaded). */
export class NoChainConfigured extends Error {
  override readonly name = "NoChainConfigured";
}

export interface ResolvedChain {
  readonly chain: ChainConfig;
  readonly stop: () => Promise<void>;
  /** Only on a local demo chain the program started itself. */
  readonly fundDemoWallet?: FundDemoWallet;
  /** The local demo chain's x402 v2 fee payer (funded with SOL). */
  readonly feePayer?: KeyPairSigner;
  /** The demo's offer and receipt signing seed, kept in .data/ (when X402_RECEIPT_SIGNING_KEY is not set). */
  readonly receiptSeed?: Uint8Array;
}

/** Starts a local chain for a service that has none configured (the demo's `npm start`). */
export type LocalChainStarter = (config: AppConfig, logger: Logger) => Promise<ResolvedChain>;

export const resolveChain = async (
  config: AppConfig,
  logger: Logger,
  localChain?: LocalChainStarter,
): Promise<ResolvedChain> => {
  if (config.chain !== undefined) return { chain: config.chain, stop: async () => {} };
  if (localChain === undefined)
    throw new NoChainConfigured(
      "no CHAIN_NETWORK is configured, and this entry point runs no local demo chain (`npm start` from a checkout does)",
    );
  return localChain(config, logger);
};

/** One WARN per embedded default in use, so operators see what is not configured. */
export const warnAboutDefaults = (config: AppConfig, logger: Logger) => {
  if (config.llm === undefined)
    logger.warn("no LLM_API_KEY: answers are composed extractively from the docs (no language model)");
  if (config.vector.kind === "local")
    logger.warn("no vector database configured: using the local index", {
      indexPath: config.vector.indexPath,
    });
  if (config.redis === undefined)
    logger.warn(
      "no REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES: quota and payments are kept in memory and lost on restart",
    );
  if (config.chain?.walletSecretKey !== undefined) {
    logger.warn(
      "PAYMENT_WALLET_SECRET_KEY is set but never needed to receive payments; consider removing it from this service",
    );
  }
  if (config.insights.adminToken !== undefined && config.insights.salt === undefined)
    logger.warn(
      "ADMIN_TOKEN is set without INSIGHTS_SALT: visitor hashes use a random key per process, so paying clients are counted anew after a restart and per instance",
    );
  if (config.x402Agents.receiptSigningKey === undefined && config.chain !== undefined)
    logger.warn(
      "X402_RECEIPT_SIGNING_KEY is not set: x402 offers and receipts are not signed (docs/x402.md, offer-receipt)",
    );
  if (config.allowedOrigins.length === 0)
    logger.warn("ALLOWED_ORIGINS is empty: browsers on other origins cannot call the API");
  const { publicOrigin, allowedHosts } = config.surface;
  if (
    !hostGuardOn({ bindHost: config.host, publicOrigin, allowedHosts, allowedOrigins: config.allowedOrigins })
  )
    logger.warn(
      "HOST is not a loopback address and neither PUBLIC_ORIGIN nor ALLOWED_HOSTS is set: any Host and Origin is served (DNS rebinding is not refused); set PUBLIC_ORIGIN to the address browsers use",
      { host: config.host },
    );
};
