/** Deterministic addresses of the built transactions: the mint, the service wallet, the payer, strangers. */
import { encodeBase58 } from "../../core/base58.ts";

/** A deterministic 32-byte base58 address per seed. */
export const addressOf = (seed: number): string =>
  encodeBase58(Uint8Array.from({ length: 32 }, (_, i) => (seed * 37 + i * 11 + 1) & 0xff));

export const USDC_MINT = addressOf(1);
export const WALLET = addressOf(2);
export const PAYER = addressOf(3);
export const OTHER_MINT = addressOf(4);
export const STRANGER = addressOf(5);
