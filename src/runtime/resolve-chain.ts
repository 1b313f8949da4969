/**
 * Which chain payments are verified on. With CHAIN_NETWORK & co. set, that network. Without,
 * a local LiteSVM chain is started in-process so a new user can buy queries offline with
 * `npm run pay` (its state file holds the demo payer's key and the mint). The local chain is
 * imported only then: LiteSVM is a native module a service on a real network never needs.
 */
import type { KeyPairSigner } from "@solana/kit";
import type { AppConfig, ChainConfig } from "../../core/config.ts";
import type { Logger } from "../observability/log.ts";
import { type FundDemoWallet, localnetFunder } from "../web/demo-faucet.ts";

/** No CHAIN_NETWORK, and LiteSVM (an optional dependency, left out of the slim image) is not installed. */
export class LocalChainMissing extends Error {
  override readonly name = "LocalChainMissing";
  constructor(cause: unknown) {
    super(
      "no CHAIN_NETWORK is configured and the local demo chain cannot be loaded (LiteSVM, an optional dependency, is not installed)",
      { cause },
    );
  }
}

export interface ResolvedChain {
  readonly chain: ChainConfig;
  readonly stop: () => Promise<void>;
  /** Only on the local demo chain the service started itself. */
  readonly fundDemoWallet?: FundDemoWallet;
  /** The local demo chain's x402 v2 fee payer (funded with SOL). */
  readonly feePayer?: KeyPairSigner;
}

export const resolveChain = async (config: AppConfig, logger: Logger): Promise<ResolvedChain> => {
  if (config.chain !== undefined) return { chain: config.chain, stop: async () => {} };
  const { serviceStateFile, startLocalnet } = await import("../localnet/index.ts").catch((cause: unknown) => {
    throw new LocalChainMissing(cause);
  });
  // One state file per service port: a second `npm start` on another PORT keeps the first one's.
  const stateFile = serviceStateFile(config.port);
  const localnet = await startLocalnet({ stateFile });
  // x402 v2's exact scheme allows only a TransferChecked: the recipient's token account must exist.
  await localnet.mintTokens(localnet.serviceWallet, 0n);
  logger.warn("no CHAIN_NETWORK configured: payments go to a local demo chain (no real money)", {
    rpcUrl: localnet.url,
    stateFile,
    payWith: `npm run pay -- --amount 0.05${config.port === 3000 ? "" : ` --state-file ${stateFile}`}`,
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
    feePayer: localnet.feePayer,
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
