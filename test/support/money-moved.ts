/**
 * What a paid path moved on the local chain, exactly: the payer's USDC, the service wallet's USDC
 * and the fee payer's SOL, in base units. A paid test reads the three before and after, so a
 * payment charged twice, or a sponsor that paid for a refusal, cannot pass unseen.
 */
import { join } from "node:path";
import { type Address, createSolanaRpc } from "@solana/kit";
import { readStateFile, serviceStateFile } from "../../dev/localnet/state-file.ts";
import { type TestChain, tokenBalance } from "./localnet.ts";

export interface Balances {
  readonly payer: bigint;
  readonly service: bigint;
  readonly feePayerSol: bigint;
}

/** One settled x402 v2 payment of 0.01 USDC: two signatures and the official client's 1 lamport of priority fee. */
export const ONE_PAYMENT: Balances = { payer: -10_000n, service: 10_000n, feePayerSol: -10_001n };
export const NOTHING: Balances = { payer: 0n, service: 0n, feePayerSol: 0n };

/** The three balances now. */
export const balancesOf = async (chain: TestChain, payer: Address): Promise<Balances> => ({
  payer: await chain.usdcBalance(payer),
  service: await chain.usdcBalance(chain.serviceWallet),
  feePayerSol: (await chain.rpc.getBalance(chain.localnet.feePayer.address).send()).value,
});

/** What moved since `before` (after minus before, each). */
export const movedSince = async (chain: TestChain, payer: Address, before: Balances): Promise<Balances> => {
  const after = await balancesOf(chain, payer);
  return {
    payer: after.payer - before.payer,
    service: after.service - before.service,
    feePayerSol: after.feePayerSol - before.feePayerSol,
  };
};

/**
 * The three balances on the demo chain `npm start` brought up for `service` (read from its state
 * file), for the tests of the CLIs against the real service.
 */
export const demoChainBalances = async (service: { readonly cwd: string; readonly port: number }) => {
  const state = await readStateFile(join(service.cwd, serviceStateFile(service.port)));
  if (state?.feePayer === undefined) throw new Error("npm start wrote no local chain state with a fee payer");
  const rpc = createSolanaRpc(state.rpcUrl);
  const feePayer = state.feePayer.address;
  const read = async (): Promise<Balances> => ({
    payer: await tokenBalance(rpc, state.mint, state.payer.address),
    service: await tokenBalance(rpc, state.mint, state.serviceWallet),
    feePayerSol: (await rpc.getBalance(feePayer).send()).value,
  });
  const before = await read();
  /** What moved since this watch began. */
  return async (): Promise<Balances> => {
    const after = await read();
    return {
      payer: after.payer - before.payer,
      service: after.service - before.service,
      feePayerSol: after.feePayerSol - before.feePayerSol,
    };
  };
};
