/**
 * In-process submission of transactions signed here: the faucet behind `requestAirdrop` and
 * the chain's own setup. They go through the same execution path as client transactions, so
 * they appear in history like any other.
 */
import { type Address, type Instruction, type KeyPairSigner, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { signInstructions, wireOf } from "../../src/solana/usdc-transfer.ts";
import type { Chain } from "./chain.ts";
import { newKeypair } from "./keys.ts";
import { describeTransactionError } from "./tx-error.ts";
import { decodeWire } from "./wire.ts";

// One million SOL: far more than any test spends, and still a safe JS integer of lamports.
const FAUCET_LAMPORTS = 1_000_000n * 1_000_000_000n;

/** Signs with `feePayer` (and any signer the instructions name) and executes; throws unless it succeeded. */
export const submitLocal = async (
  chain: Chain,
  feePayer: KeyPairSigner,
  instructions: ReadonlyArray<Instruction>,
): Promise<string> => {
  const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
  const signed = await signInstructions(feePayer, instructions, {
    blockhash,
    lastValidBlockHeight: BigInt(lastValidBlockHeight),
  });
  const outcome = chain.execute(decodeWire(wireOf(signed), "base64"));
  const err = outcome.kind === "rejected" ? outcome.err : outcome.record.err;
  if (err !== null) throw new Error(`local transaction failed: ${describeTransactionError(err)}`);
  return outcome.kind === "executed" ? outcome.record.signature : "";
};

export const makeFaucet = async (chain: Chain) => {
  const { signer } = await newKeypair();
  const funded = chain.svm.airdrop(signer.address, lamports(FAUCET_LAMPORTS));
  if (funded === null || chain.svm.getBalance(signer.address) !== FAUCET_LAMPORTS) {
    throw new Error("could not fund the local faucet");
  }
  return {
    address: signer.address,
    /** A real system transfer from the faucet; resolves to its signature. */
    airdrop: (to: Address, amount: bigint): Promise<string> =>
      submitLocal(chain, signer, [
        getTransferSolInstruction({ source: signer, destination: to, amount: lamports(amount) }),
      ]),
  };
};

export type Faucet = Awaited<ReturnType<typeof makeFaucet>>;
