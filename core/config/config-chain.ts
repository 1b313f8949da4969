/**
 * The chain part of the configuration: the network and wallet go together (a partial set is
 * refused); the USDC mint and the RPC URL default to the network's own (Circle's mint and the
 * public endpoint; localnet has neither, so both are named there); an optional wallet secret key
 * is validated (and proven to belong to the wallet) but never shown.
 */
import * as Redacted from "effect/Redacted";
import { encodeBase58, isBase58Address } from "../base58.ts";
import { CHAIN_NETWORKS, type ChainNetwork, DEFAULT_RPC_URL } from "../payments/network.ts";
import { type Decoded, field, jsonBytes, Url } from "./config-fields.ts";

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

const address = field("not a base58 address", (input) =>
  typeof input === "string" && isBase58Address(input) ? input : undefined,
);

/** The chain's variables, as fields of the service's settings (core/config/config-service.ts). */
export const CHAIN_FIELDS = {
  CHAIN_NETWORK: field(`must be one of ${CHAIN_NETWORKS.join(", ")}`, (input) =>
    CHAIN_NETWORKS.find((network) => network === input),
  ),
  USDC_MINT_ADDRESS: address,
  PAYMENT_WALLET_ADDRESS: address,
  SOLANA_RPC_URL: Url(true),
  /** A Solana secret key: JSON list of 64 byte values (whether it is the wallet's is checked below). */
  PAYMENT_WALLET_SECRET_KEY: field(
    "must be a JSON list of 64 numbers from 0 to 255",
    (input) => {
      const bytes = typeof input === "string" ? jsonBytes(input) : undefined;
      return bytes?.length === 64 ? Redacted.make(bytes) : undefined;
    },
    true,
  ),
};

type ChainSettings = Decoded<typeof CHAIN_FIELDS>;

/**
 * The chain settings (undefined when none are given: local demo chain) and the rules across its
 * variables, judged on the text as written so they are named beside each variable's own problem.
 */
export const chainOf = (
  s: ChainSettings,
  text: (name: string) => string | undefined,
  problems: string[],
): ChainConfig | undefined => {
  const network = text("CHAIN_NETWORK");
  const wallet = text("PAYMENT_WALLET_ADDRESS");
  const before = problems.length;
  if (network === undefined && text("USDC_MINT_ADDRESS") === undefined && wallet === undefined) {
    if (text("PAYMENT_WALLET_SECRET_KEY") !== undefined)
      problems.push("PAYMENT_WALLET_SECRET_KEY: set without PAYMENT_WALLET_ADDRESS (value hidden)");
    // A lone RPC URL would otherwise be ignored silently and the demo chain used instead.
    if (text("SOLANA_RPC_URL") !== undefined)
      problems.push(
        "SOLANA_RPC_URL: set without CHAIN_NETWORK, USDC_MINT_ADDRESS and PAYMENT_WALLET_ADDRESS",
      );
    return undefined;
  }
  if (network === undefined) problems.push("CHAIN_NETWORK: required when a payment wallet or mint is set");
  const net = s.CHAIN_NETWORK;
  if (network === "localnet" && text("USDC_MINT_ADDRESS") === undefined)
    problems.push("USDC_MINT_ADDRESS: required with CHAIN_NETWORK=localnet (the local chain's own mint)");
  if (wallet === undefined) problems.push("PAYMENT_WALLET_ADDRESS: required with CHAIN_NETWORK");
  if (network === "localnet" && text("SOLANA_RPC_URL") === undefined)
    problems.push("SOLANA_RPC_URL: required when CHAIN_NETWORK=localnet");
  const key = s.PAYMENT_WALLET_SECRET_KEY;
  if (key !== undefined && wallet !== undefined && encodeBase58(Redacted.value(key).slice(32)) !== wallet)
    problems.push("PAYMENT_WALLET_SECRET_KEY: does not belong to PAYMENT_WALLET_ADDRESS (value hidden)");
  const usdcMint = s.USDC_MINT_ADDRESS ?? (net && USDC_MINT[net]);
  const rpcUrl = s.SOLANA_RPC_URL ?? (net && DEFAULT_RPC_URL[net]);
  if (problems.length > before || !net || !usdcMint || !rpcUrl || !s.PAYMENT_WALLET_ADDRESS) return undefined;
  return { network: net, usdcMint, wallet: s.PAYMENT_WALLET_ADDRESS, rpcUrl, walletSecretKey: key };
};
