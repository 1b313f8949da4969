/**
 * The demo world created at start: a USDC-like mint (6 decimals), its mint authority, a payer
 * with SOL and test USDC, and a service wallet (the receiving address) with no token account
 * yet, so the first payment also creates it, as a first real payment would.
 */
import type { Address, KeyPairSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { UNITS_PER_USDC, USDC_DECIMALS } from "../../core/payments/money.ts";
import { associatedTokenAccount } from "../../src/solana/usdc-transfer.ts";
import type { Chain } from "./chain.ts";
import { type Faucet, submitLocal } from "./faucet.ts";
import { type Keypair, newKeypair } from "./keys.ts";

const LAMPORTS_PER_SOL = 1_000_000_000n;
/** What the demo payer starts with. */
const PAYER_START = { lamports: 100n * LAMPORTS_PER_SOL, usdcUnits: 1000n * UNITS_PER_USDC } as const;

export interface DemoWorld {
  readonly mint: Address;
  readonly mintAuthority: Keypair;
  readonly payer: Keypair;
  readonly serviceWallet: Address;
  /** The x402 v2 facilitator's fee payer (SOL only): it co-signs and pays the fees of clients' transfers. */
  readonly feePayer: Keypair;
}

/** Creates a mint with `authority` (which pays) and returns its address. */
export const createMint = async (
  chain: Chain,
  authority: KeyPairSigner,
  decimals: number,
): Promise<Address> => {
  const mint = (await newKeypair()).signer;
  const space = getMintSize();
  await submitLocal(chain, authority, [
    getCreateAccountInstruction({
      payer: authority,
      newAccount: mint,
      lamports: chain.svm.minimumBalanceForRentExemption(BigInt(space)),
      space,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: authority.address }),
  ]);
  return mint.address;
};

/** Mints `units` to `owner`'s associated token account (created if missing). */
export const mintTo = async (
  chain: Chain,
  authority: KeyPairSigner,
  mint: Address,
  owner: Address,
  units: bigint,
  decimals: number,
): Promise<void> => {
  const ata = await associatedTokenAccount(owner, mint);
  await submitLocal(chain, authority, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata, owner, mint }),
    getMintToCheckedInstruction({ mint, token: ata, mintAuthority: authority, amount: units, decimals }),
  ]);
};

export const bootstrap = async (chain: Chain, faucet: Faucet): Promise<DemoWorld> => {
  const mintAuthority = await newKeypair();
  const payer = await newKeypair();
  const serviceWallet = (await newKeypair()).signer.address;
  const feePayer = await newKeypair();
  await faucet.airdrop(mintAuthority.signer.address, 10n * LAMPORTS_PER_SOL);
  await faucet.airdrop(payer.signer.address, PAYER_START.lamports);
  await faucet.airdrop(feePayer.signer.address, 10n * LAMPORTS_PER_SOL);
  const mint = await createMint(chain, mintAuthority.signer, USDC_DECIMALS);
  await mintTo(chain, mintAuthority.signer, mint, payer.signer.address, PAYER_START.usdcUnits, USDC_DECIMALS);
  return { mint, mintAuthority, payer, serviceWallet, feePayer };
};
