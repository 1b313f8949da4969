/** Solana networks the service can take payments on, and x402's names for them. */
export const CHAIN_NETWORKS = ["devnet", "mainnet-beta", "localnet"] as const;
export type ChainNetwork = (typeof CHAIN_NETWORKS)[number];

/** Public JSON-RPC endpoints; localnet has none (its URL must be given). */
export const DEFAULT_RPC_URL: Record<ChainNetwork, string | undefined> = {
  devnet: "https://api.devnet.solana.com",
  "mainnet-beta": "https://api.mainnet-beta.solana.com",
  localnet: undefined,
};

/** The x402 protocol's network constants (x402 protocol reference, section 8). */
export const X402_NETWORKS = {
  devnet: "chain-devnet",
  testnet: "chain-testnet",
  mainnet: "chain-mainnet",
} as const;
export type X402Network = (typeof X402_NETWORKS)[keyof typeof X402_NETWORKS];

/** x402 name of a chain network (localnet is announced as a devnet: it is never real money). */
export const x402NetworkOf = (network: ChainNetwork): X402Network =>
  network === "mainnet-beta" ? X402_NETWORKS.mainnet : X402_NETWORKS.devnet;

/** Public JSON-RPC endpoints of the x402 networks (the spec's default RPC addresses). */
export const X402_DEFAULT_RPC_URL: Record<X402Network, string> = {
  "chain-devnet": "https://api.devnet.solana.com",
  "chain-testnet": "https://api.testnet.solana.com",
  "chain-mainnet": "https://api.mainnet-beta.solana.com",
};
