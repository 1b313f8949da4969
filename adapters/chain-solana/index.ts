/** ChainReader over Solana JSON-RPC: `ChainSolana.layer({ rpcUrl, timeoutMs?, attempts? })`. */
export * as ChainSolana from "./solana-chain-reader.ts";
