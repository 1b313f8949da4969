/**
 * A local Solana chain for development and tests: LiteSVM (the real SVM and SPL programs)
 * behind a standard JSON-RPC endpoint on 127.0.0.1, so @solana/kit and the service talk to it
 * exactly as to devnet. Started with a demo mint, payer and service wallet.
 */
import type { Address, KeyPairSigner } from "@solana/kit";
import { USDC_DECIMALS } from "../../core/payments/money.ts";
import { bootstrap, createMint, mintTo } from "./bootstrap.ts";
import { makeChain } from "./chain.ts";
import { makeFaucet } from "./faucet.ts";
import { type FaultPlan, makeFaults } from "./faults.ts";
import { accountMethods } from "./rpc-accounts.ts";
import { clusterMethods } from "./rpc-cluster.ts";
import { startRpcServer } from "./rpc-server.ts";
import { transactionMethods } from "./rpc-transactions.ts";
import { liveOwnerOf, removeOwnStateFile, writeStateFile } from "./state-file.ts";
import { readMint } from "./token-accounts.ts";

export type { Fault, FaultKind, FaultPlan } from "./faults.ts";
export { DEFAULT_STATE_FILE, serviceStateFile } from "./state-file.ts";

export interface LocalnetOptions {
  /** 0 or absent: any free port. */
  readonly port?: number;
  /** Transactions become visible at confirmed/finalized this many ms after they execute. */
  readonly confirmationDelayMs?: number;
  /** Where to write the state file (refused while another running process owns it); absent: no file. */
  readonly stateFile?: string;
  /** Faults active from the start (method or "*" -> fault). */
  readonly faults?: FaultPlan;
}

export interface Localnet {
  readonly url: string;
  /** The USDC-like mint (6 decimals). */
  readonly mint: Address;
  /** Demo payer: 100 SOL and 1000 test USDC at start. */
  readonly payer: KeyPairSigner;
  readonly mintAuthority: KeyPairSigner;
  /** The x402 v2 fee payer, funded with SOL (its secret is in the state file, `jq .feePayer`). */
  readonly feePayer: KeyPairSigner;
  /** Its 64-byte secret key, as X402_FEE_PAYER_SECRET_KEY would hold it (a throwaway local key). */
  readonly feePayerSecretKey: Uint8Array;
  /** The receiving wallet of the demo (no token account until the first payment). */
  readonly serviceWallet: Address;
  readonly stateFile: string | undefined;
  /** Replaces all faults (empty plan: none). */
  readonly setFaults: (plan: FaultPlan) => void;
  /** Calls received for a method since start, faulted ones included. */
  readonly calls: (method: string) => number;
  /** Applies to transactions executed from now on. */
  readonly setConfirmationDelay: (ms: number) => void;
  /** Shifts block times of transactions executed from now on (negative: the past). */
  readonly setClockOffsetMs: (ms: number) => void;
  /** Produces `count` empty blocks: older blockhashes expire, older statuses leave the recent cache. */
  readonly skipBlocks: (count: number) => void;
  /** SOL from the faucet, as a real transfer; resolves to its signature. */
  readonly airdrop: (to: Address, lamports: bigint) => Promise<string>;
  /** A new mint with `authority` as mint authority (it must hold SOL). */
  readonly createMint: (authority: KeyPairSigner, decimals: number) => Promise<Address>;
  /** Mints demo USDC (or units of another `mint` with its `authority`) to `owner`'s associated token account. */
  readonly mintTokens: (
    owner: Address,
    units: bigint,
    mint?: Address,
    authority?: KeyPairSigner,
  ) => Promise<void>;
  readonly stop: () => Promise<void>;
}

/** Starts the chain and its RPC endpoint; `stop()` closes it. */
export const startLocalnet = async (options: LocalnetOptions = {}): Promise<Localnet> => {
  const owner = options.stateFile === undefined ? undefined : await liveOwnerOf(options.stateFile);
  if (owner !== undefined)
    throw new Error(
      `${options.stateFile} belongs to a local chain still running (pid ${owner}); stop it, or use another port or state file`,
    );
  const settings = { confirmationDelayMs: options.confirmationDelayMs ?? 0, clockOffsetMs: 0 };
  const chain = makeChain(settings);
  const faucet = await makeFaucet(chain);
  const world = await bootstrap(chain, faucet);
  const faults = makeFaults();
  faults.set(options.faults ?? {});
  const methods = {
    ...clusterMethods(chain, faucet),
    ...accountMethods(chain),
    ...transactionMethods(chain),
  };
  const server = await startRpcServer(options.port ?? 0, methods, faults);
  if (options.stateFile !== undefined) {
    await writeStateFile(options.stateFile, {
      rpcUrl: server.url,
      mint: world.mint,
      decimals: USDC_DECIMALS,
      serviceWallet: world.serviceWallet,
      payer: world.payer,
      mintAuthority: world.mintAuthority,
      feePayer: world.feePayer,
    });
  }
  return {
    url: server.url,
    mint: world.mint,
    payer: world.payer.signer,
    mintAuthority: world.mintAuthority.signer,
    feePayer: world.feePayer.signer,
    feePayerSecretKey: Uint8Array.from(world.feePayer.secretKey),
    serviceWallet: world.serviceWallet,
    stateFile: options.stateFile,
    setFaults: faults.set,
    calls: faults.calls,
    setConfirmationDelay: (ms) => {
      settings.confirmationDelayMs = ms;
    },
    setClockOffsetMs: (ms) => {
      settings.clockOffsetMs = ms;
    },
    skipBlocks: chain.skipBlocks,
    airdrop: faucet.airdrop,
    createMint: (authority, decimals) => createMint(chain, authority, decimals),
    mintTokens: async (owner, units, mint = world.mint, authority = world.mintAuthority.signer) => {
      const info = readMint(chain.svm.getAccount(mint));
      if (info === undefined) throw new Error(`${mint} is not a mint`);
      await mintTo(chain, authority, mint, owner, units, info.decimals);
    },
    stop: async () => {
      await server.stop();
      if (options.stateFile !== undefined) await removeOwnStateFile(options.stateFile);
    },
  };
};
