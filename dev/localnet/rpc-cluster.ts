/** Cluster methods: blockhashes, slots, health, version, airdrops. */
import type { Chain } from "./chain.ts";
import type { Faucet } from "./faucet.ts";
import { rpcFailure } from "./rpc-failure.ts";
import { addressParam, integerParam, type Methods, withContext } from "./rpc-params.ts";

/** The cluster methods over `chain`; airdrops are real transfers from `faucet`. */
export const clusterMethods = (chain: Chain, faucet: Faucet): Methods => ({
  getLatestBlockhash: () => {
    const latest = chain.latestBlockhash();
    return withContext(chain.slot(), latest);
  },
  isBlockhashValid: (params) => {
    const hash = params[0];
    return withContext(chain.slot(), typeof hash === "string" && chain.isBlockhashValid(hash));
  },
  getSlot: () => chain.slot(),
  getBlockHeight: () => chain.slot(),
  getHealth: () => "ok",
  getVersion: () => ({ "solana-core": "2.2.0", "feature-set": 0 }),
  getGenesisHash: () => chain.genesisHash,
  requestAirdrop: async (params) => {
    const to = addressParam(params, 0);
    const amount = integerParam(params, 1, "lamports");
    try {
      return await faucet.airdrop(to, BigInt(amount));
    } catch (cause) {
      throw rpcFailure(
        -32600,
        `airdrop request failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
    }
  },
});
