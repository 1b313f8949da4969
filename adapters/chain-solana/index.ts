/** ChainReader over Solana JSON-RPC: `ChainSolana.layer({ rpcUrl, timeoutMs?, attempts? })`. */
export * as ChainSolana from "./chain-reader.ts";
