/** The chain as the widget reaches it: the service's RPC relay, and the network's Wallet Standard id. */
import { createSolanaRpc } from "@solana/kit";

export interface PayContext {
  /** The service root (no trailing slash). */
  readonly apiUrl: string;
  readonly payment: {
    readonly network: string;
    readonly recipient: string;
    readonly usdcMint: string;
    readonly memo: string;
    /** The price of a question in USDC ("0.001"); absent: the default price. */
    readonly pricePerQuery?: string;
  };
}

/** Wallet Standard chain ids (solana:mainnet, solana:devnet, solana:localnet). */
export const chainId = (network: string) =>
  network === "mainnet-beta" ? "solana:mainnet" : (`solana:${network}` as `${string}:${string}`);

/** JSON-RPC through POST /api/solana-rpc (see src/http/routes/rpc-relay.ts). */
export const relayRpc = (apiUrl: string) => createSolanaRpc(`${apiUrl}/api/solana-rpc`);
