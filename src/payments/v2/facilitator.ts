/**
 * Starts the service's own x402 v2 facilitator for one chain: the fee-payer key (a signer, or
 * the secret of X402_FEE_PAYER_SECRET_KEY) and the chain's CAIP-2 id read from its genesis
 * hash. Without a key the v2 dialect is not offered, and one line says so.
 */
import type { KeyPairSigner } from "@solana/kit";
import { DEFAULT_SPONSOR_LOSS_LAMPORTS_PER_HOUR } from "../../../core/payments/sponsor-losses.ts";
import type { Logger } from "../../observability/log.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { countedSolanaRpc, type OnRpcCall } from "../../solana/rpc-calls.ts";
import type { ExactFacilitator } from "./exact-payment.ts";
import { createFeePayer, FEE_PAYER_SECRET_VARIABLE, loadFeePayer, type OnSpend } from "./fee-payer.ts";
import { DEFAULT_SPONSOR_POLICY, type SponsorPolicy } from "./sponsor-policy.ts";
import { watchSponsor } from "./sponsor-watch.ts";
import { solanaNetworkId } from "./wire.ts";

export interface FacilitatorSetup {
  readonly rpcUrl: string;
  /** The fee payer: a signer (the local chain's), the secret key's bytes or text, or nothing (v2 off). */
  readonly feePayer: KeyPairSigner | Uint8Array | string | undefined;
  readonly logger: Logger;
  /** What the fee payer signs for (default: DEFAULT_SPONSOR_POLICY). */
  readonly policy?: SponsorPolicy;
  /** Below this balance x402 v2 is withdrawn from 402s (default 0: never). */
  readonly minBalanceLamports?: bigint;
  /** Where its spending and balance are counted (/metrics). */
  readonly metrics?: Metrics;
  /** X402_PAYMENT_ID_REQUIRED: 402s declare the payment identifier required (default false). */
  readonly paymentIdRequired?: boolean;
  /** Lamports failed settlements may cost per UTC hour (default 1,000,000: sponsor-losses.ts). */
  readonly lossBudgetLamportsPerHour?: number;
  /** How long a settlement waits for its confirmation (default 30 s; tests shorten it). */
  readonly confirmTimeoutMs?: number;
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
  const { metrics } = setup;
  const onRpcCall: OnRpcCall = (method, cause) => metrics?.count("chain_rpc_calls_total", { method, cause });
  const genesisHash = await countedSolanaRpc(setup.rpcUrl, "sponsor", onRpcCall).getGenesisHash().send();
  const balances = countedSolanaRpc(setup.rpcUrl, "balance", onRpcCall);
  const sponsor = watchSponsor({
    read: async () => (await balances.getBalance(signer.address).send()).value,
    floor: setup.minBalanceLamports ?? 0n,
    logger: setup.logger,
    onChange: (lamports, offered) => {
      metrics?.gauge("x402_fee_payer_lamports", Number(lamports));
      metrics?.gauge("x402_offered", offered ? 1 : 0);
    },
  });
  await sponsor.refresh();
  const onSpend: OnSpend = (outcome, lamports) => {
    sponsor.spent(lamports);
    metrics?.count("x402_sponsor_transactions_total", { outcome });
    metrics?.count("x402_sponsor_lamports_total", { outcome }, Number(lamports));
  };
  const feePayer = createFeePayer(
    signer,
    setup.rpcUrl,
    onSpend,
    onRpcCall,
    setup.confirmTimeoutMs === undefined ? {} : { confirmTimeoutMs: setup.confirmTimeoutMs },
  );
  await feePayer.warmBlockhashHint();
  const facilitator = {
    feePayer,
    network: solanaNetworkId(genesisHash),
    policy: setup.policy ?? DEFAULT_SPONSOR_POLICY,
    sponsor,
    paymentIdRequired: setup.paymentIdRequired ?? false,
    losses: {
      budgetLamportsPerHour: setup.lossBudgetLamportsPerHour ?? DEFAULT_SPONSOR_LOSS_LAMPORTS_PER_HOUR,
      onRefused: (reason: string) => metrics?.count("x402_sponsor_refusals_total", { reason }),
    },
  };
  setup.logger.info("x402 v2 offered (scheme exact, this service as facilitator)", {
    network: facilitator.network,
    feePayer: signer.address,
    maxSponsorFeeLamports: facilitator.policy.maxFeeLamports.toString(),
  });
  return facilitator;
};
