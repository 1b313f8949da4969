/**
 * Which chain payments are verified on. With CHAIN_NETWORK & co. set, that network. Without,
 * a local LiteSVM chain is started in-process so a new user can buy queries offline with
 * `npm run pay` (its state file holds the demo payer's key and the mint). The local chain is
 * imported only then: LiteSVM is a native module a service on a real network never needs.
 */
import type { AppConfig, ChainConfig } from "../../core/config.ts";
import type { Logger } from "../observability/log.ts";
import { type FundDemoWallet, localnetFunder } from "../web/demo-faucet.ts";

export interface ResolvedChain {
  readonly chain: ChainConfig;
  readonly stop: () => Promise<void>;
  /** Only on the local demo chain the service started itself. */
  readonly fundDemoWallet?: FundDemoWallet;
}

export const resolveChain = async (config: AppConfig, logger: Logger): Promise<ResolvedChain> => {
  if (config.chain !== undefined) return { chain: config.chain, stop: async () => {} };
  const { DEFAULT_STATE_FILE, startLocalnet } = await import("../localnet/index.ts");
  const localnet = await startLocalnet({ stateFile: DEFAULT_STATE_FILE });
  logger.warn("no CHAIN_NETWORK configured: payments go to a local demo chain (no real money)", {
    rpcUrl: localnet.url,
    stateFile: DEFAULT_STATE_FILE,
    payWith: "npm run pay -- --amount 0.05",
  });
  return {
    chain: {
      network: "localnet",
      usdcMint: localnet.mint,
      wallet: localnet.serviceWallet,
      rpcUrl: localnet.url,
      walletSecretKey: undefined,
    },
    stop: () => localnet.stop(),
    fundDemoWallet: localnetFunder(localnet),
  };
};

/** One WARN per embedded default in use, so operators see what is not configured. */
export const warnAboutDefaults = (config: AppConfig, logger: Logger) => {
  if (config.llm === undefined)
    logger.warn("no LLM_API_KEY: answers are composed extractively from the docs (no language model)");
  if (config.vector.kind === "local")
    logger.warn("no vector database configured: using the local index", {
      indexPath: config.vector.indexPath,
    });
  if (config.redisUrl === undefined)
    logger.warn("no REDIS_URL: quota and payments are kept in memory and lost on restart");
  if (config.chain?.walletSecretKey !== undefined) {
    logger.warn(
      "PAYMENT_WALLET_SECRET_KEY is set but never needed to receive payments; consider removing it from this service",
    );
  }
  if (config.insights.adminToken !== undefined && config.insights.salt === undefined)
    logger.warn(
      "ADMIN_TOKEN is set without INSIGHTS_SALT: visitor hashes use a random key per process, so paying clients are counted anew after a restart and per instance",
    );
  if (config.allowedOrigins.length === 0)
    logger.warn("ALLOWED_ORIGINS is empty: browsers on other origins cannot call the API");
};
