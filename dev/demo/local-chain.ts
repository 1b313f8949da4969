/**
 * The local demo chain `npm start` runs when no CHAIN_NETWORK is configured: LiteSVM in this
 * process behind a JSON-RPC server, a test USDC mint, the service's wallet and a funded x402
 * v2 fee payer, so a new user can buy queries offline with `npm run pay`. Loaded only then:
 * LiteSVM is a native optional dependency a service on a real network never needs.
 */

import { DEMO_FUNDS, type FundDemoWallet } from "../../src/http/routes/demo-faucet.ts";
import type { LocalChainStarter } from "../../src/runtime/resolve-chain.ts";
import type { Localnet } from "../localnet/index.ts";
import { demoReceiptSeed } from "./receipt-key.ts";

/** Funding from the local chain's faucet and mint authority: real transactions on that chain. */
export const localnetFunder =
  (localnet: Pick<Localnet, "airdrop" | "mintTokens">): FundDemoWallet =>
  async (owner) => {
    await localnet.airdrop(owner, DEMO_FUNDS.lamports);
    await localnet.mintTokens(owner, DEMO_FUNDS.usdcUnits);
  };

/** LiteSVM (an optional dependency) is not installed. */
export class LocalChainMissing extends Error {
  override readonly name = "LocalChainMissing";
  constructor(cause: unknown) {
    super(
      "no CHAIN_NETWORK is configured and the local demo chain cannot be loaded (LiteSVM, an optional dependency, is not installed)",
      { cause },
    );
  }
}

export const startLocalDemoChain: LocalChainStarter = async (config, logger) => {
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
    receiptSeed: await demoReceiptSeed(),
  };
};
