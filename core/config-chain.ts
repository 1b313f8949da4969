/**
 * The chain part of the configuration: the network and wallet go together (a partial set is
 * refused); the USDC mint and the RPC URL default to the network's own (Circle's mint and the
 * public endpoint; localnet has neither, so both are named there); an optional wallet secret key
 * is validated (and proven to belong to the wallet) but never shown.
 */
import * as Redacted from "effect/Redacted";
import { encodeBase58, isBase58Address } from "./base58.ts";
import type { Reader } from "./config-reader.ts";
import { CHAIN_NETWORKS, type ChainNetwork, DEFAULT_RPC_URL } from "./payments/network.ts";

export interface ChainConfig {
  readonly network: ChainNetwork;
  readonly usdcMint: string;
  readonly wallet: string;
  readonly rpcUrl: string;
  readonly walletSecretKey: Redacted.Redacted<Uint8Array> | undefined;
}

/** Circle's USDC mint of each public network; a local chain mints its own. */
export const USDC_MINT: Record<ChainNetwork, string | undefined> = {
  devnet: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
  "mainnet-beta": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  localnet: undefined,
};

/** A Solana secret key: JSON list of 64 byte values whose last 32 are the wallet's public key. */
const parseSecretKey = (value: string, wallet: string | undefined, problems: string[]) => {
  const bad = (why: string) => {
    problems.push(`PAYMENT_WALLET_SECRET_KEY: ${why} (value hidden)`);
    return undefined;
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return bad("must be a JSON list of 64 numbers from 0 to 255");
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 64 ||
    !parsed.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
  ) {
    return bad("must be a JSON list of 64 numbers from 0 to 255");
  }
  const bytes = Uint8Array.from(parsed as number[]);
  if (wallet !== undefined && encodeBase58(bytes.slice(32)) !== wallet) {
    return bad("does not belong to PAYMENT_WALLET_ADDRESS");
  }
  return Redacted.make(bytes);
};

/** The chain settings, or undefined when none are given (local demo chain). */
export const parseChain = (read: Reader): ChainConfig | undefined => {
  const { problems, text } = read;
  const network = text("CHAIN_NETWORK");
  const mintGiven = text("USDC_MINT_ADDRESS");
  const wallet = text("PAYMENT_WALLET_ADDRESS");
  const rpcUrl = read.url("SOLANA_RPC_URL", true);
  const secret = text("PAYMENT_WALLET_SECRET_KEY");
  const before = problems.length;
  if (network === undefined && mintGiven === undefined && wallet === undefined) {
    if (secret !== undefined)
      problems.push("PAYMENT_WALLET_SECRET_KEY: set without PAYMENT_WALLET_ADDRESS (value hidden)");
    // A lone RPC URL would otherwise be ignored silently and the demo chain used instead.
    if (text("SOLANA_RPC_URL") !== undefined)
      problems.push(
        "SOLANA_RPC_URL: set without CHAIN_NETWORK, USDC_MINT_ADDRESS and PAYMENT_WALLET_ADDRESS",
      );
    return undefined;
  }
  if (network === undefined) problems.push("CHAIN_NETWORK: required when a payment wallet or mint is set");
  else if (!CHAIN_NETWORKS.includes(network as ChainNetwork))
    problems.push(`CHAIN_NETWORK: must be one of ${CHAIN_NETWORKS.join(", ")} (got "${network}")`);
  const usdcMint = mintGiven ?? USDC_MINT[network as ChainNetwork];
  if (network === "localnet" && usdcMint === undefined)
    problems.push("USDC_MINT_ADDRESS: required with CHAIN_NETWORK=localnet (the local chain's own mint)");
  else if (usdcMint !== undefined && !isBase58Address(usdcMint))
    problems.push(`USDC_MINT_ADDRESS: not a base58 address (got "${usdcMint}")`);
  if (wallet === undefined) problems.push("PAYMENT_WALLET_ADDRESS: required with CHAIN_NETWORK");
  else if (!isBase58Address(wallet))
    problems.push(`PAYMENT_WALLET_ADDRESS: not a base58 address (got "${wallet}")`);
  const chainNetwork = network as ChainNetwork;
  const resolvedRpc = rpcUrl ?? DEFAULT_RPC_URL[chainNetwork];
  if (network === "localnet" && rpcUrl === undefined)
    problems.push("SOLANA_RPC_URL: required when CHAIN_NETWORK=localnet");
  const walletSecretKey = secret === undefined ? undefined : parseSecretKey(secret, wallet, problems);
  if (problems.length > before || usdcMint === undefined || wallet === undefined || resolvedRpc === undefined)
    return undefined;
  return { network: chainNetwork, usdcMint, wallet, rpcUrl: resolvedRpc, walletSecretKey };
};
