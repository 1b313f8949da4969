/**
 * Starts the service's own x402 v2 facilitator for one chain: the fee-payer key (a signer, or
 * the secret of X402_FEE_PAYER_SECRET_KEY) and the chain's CAIP-2 id read from its genesis
 * hash. Without a key the v2 dialect is not offered, and one line says so.
 */
import { createSolanaRpc, type KeyPairSigner } from "@solana/kit";
import type { Logger } from "../../observability/log.ts";
import type { ExactFacilitator } from "./exact-payment.ts";
import { createFeePayer, FEE_PAYER_SECRET_VARIABLE, loadFeePayer } from "./fee-payer.ts";
import { DEFAULT_SPONSOR_POLICY, type SponsorPolicy } from "./sponsor-policy.ts";
import { solanaNetworkId } from "./wire.ts";

export interface FacilitatorSetup {
  readonly rpcUrl: string;
  /** The fee payer: a signer (the local chain's), the secret key's bytes or text, or nothing (v2 off). */
  readonly feePayer: KeyPairSigner | Uint8Array | string | undefined;
  readonly logger: Logger;
  /** What the fee payer signs for (default: DEFAULT_SPONSOR_POLICY). */
  readonly policy?: SponsorPolicy;
}

export const startFacilitator = async (setup: FacilitatorSetup): Promise<ExactFacilitator | undefined> => {
  if (setup.feePayer === undefined) {
    setup.logger.info(`x402 v2 (PAYMENT-SIGNATURE) not offered: ${FEE_PAYER_SECRET_VARIABLE} is not set`);
    return undefined;
  }
  const signer =
    typeof setup.feePayer === "string" || setup.feePayer instanceof Uint8Array
      ? await loadFeePayer(setup.feePayer)
      : setup.feePayer;
  const genesisHash = await createSolanaRpc(setup.rpcUrl).getGenesisHash().send();
  const facilitator = {
    feePayer: createFeePayer(signer, setup.rpcUrl),
    network: solanaNetworkId(genesisHash),
    policy: setup.policy ?? DEFAULT_SPONSOR_POLICY,
  };
  setup.logger.info("x402 v2 offered (scheme exact, this service as facilitator)", {
    network: facilitator.network,
    feePayer: signer.address,
    maxSponsorFeeLamports: facilitator.policy.maxFeeLamports.toString(),
  });
  return facilitator;
};
