/**
 * Client side of payments over any Solana JSON-RPC (the local chain, devnet...): build a USDC
 * transfer, sign it, send it, wait for its status. Shared by the pay CLI, the local chain's
 * own setup and the test helpers. Confirmation polls `getSignatureStatuses`, so no websocket
 * endpoint is needed.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  type GetLatestBlockhashApi,
  type GetSignatureStatusesApi,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  type Rpc,
  type SendTransactionApi,
  type Signature,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from "@solana/kit";
import { getAddMemoInstruction, LEGACY_MEMO_PROGRAM_ADDRESS_V3 } from "@solana-program/memo";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";

export type SendRpc = Rpc<GetLatestBlockhashApi & SendTransactionApi & GetSignatureStatusesApi>;

export interface UsdcTransfer {
  /** Pays the fee and the recipient's token account rent if it must be created. */
  readonly payer: TransactionSigner;
  /** Owner of the source token account (often the payer). */
  readonly from: TransactionSigner;
  /** Owner (wallet) of the destination; its associated token account is used. */
  readonly to: Address;
  readonly mint: Address;
  readonly units: bigint;
  readonly decimals: number;
  readonly memo?: string | undefined;
  readonly tokenProgram?: Address | undefined;
  /** The source token account when the caller already derived it (default: `from`'s associated one). */
  readonly source?: Address | undefined;
}

/** The associated token account of `owner` for `mint`. */
export const associatedTokenAccount = async (
  owner: Address,
  mint: Address,
  tokenProgram: Address = TOKEN_PROGRAM_ADDRESS,
): Promise<Address> => (await findAssociatedTokenPda({ owner, mint, tokenProgram }))[0];

/** A memo on the v3 memo program, the one every cluster and LiteSVM carry. */
export const memoInstruction = (memo: string): Instruction =>
  getAddMemoInstruction({ memo }, { programAddress: LEGACY_MEMO_PROGRAM_ADDRESS_V3 });

/** createIdempotent(recipient ATA) + transferChecked (+ memo). */
export const usdcTransferInstructions = async (
  transfer: UsdcTransfer,
): Promise<ReadonlyArray<Instruction>> => {
  const tokenProgram = transfer.tokenProgram ?? TOKEN_PROGRAM_ADDRESS;
  const source =
    transfer.source ?? (await associatedTokenAccount(transfer.from.address, transfer.mint, tokenProgram));
  const destination = await associatedTokenAccount(transfer.to, transfer.mint, tokenProgram);
  return [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: transfer.payer,
      ata: destination,
      owner: transfer.to,
      mint: transfer.mint,
      tokenProgram,
    }),
    getTransferCheckedInstruction(
      {
        source,
        mint: transfer.mint,
        destination,
        authority: transfer.from,
        amount: transfer.units,
        decimals: transfer.decimals,
      },
      { programAddress: tokenProgram },
    ),
    ...(transfer.memo === undefined ? [] : [memoInstruction(transfer.memo)]),
  ];
};

/** Signs `instructions` with every signer they name, `feePayer` paying. */
export const signInstructions = (
  feePayer: KeyPairSigner | TransactionSigner,
  instructions: ReadonlyArray<Instruction>,
  lifetime: { readonly blockhash: Blockhash; readonly lastValidBlockHeight: bigint },
) =>
  pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayerSigner(feePayer, message),
    (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
    (message) => appendTransactionMessageInstructions(instructions, message),
    (message) => signTransactionMessageWithSigners(message),
  );

export type SignedTransaction = Awaited<ReturnType<typeof signInstructions>>;

/** The base64 wire form of a signed transaction. */
export const wireOf = (transaction: SignedTransaction) => getBase64EncodedWireTransaction(transaction);

export interface SendOptions {
  readonly skipPreflight?: boolean;
}

/** Fetches a blockhash, signs and sends; resolves to the signature once the node accepted it. */
export const signAndSend = async (
  rpc: SendRpc,
  feePayer: TransactionSigner,
  instructions: ReadonlyArray<Instruction>,
  options: SendOptions = {},
): Promise<Signature> => {
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const transaction = await signInstructions(feePayer, instructions, lifetime);
  return rpc
    .sendTransaction(wireOf(transaction), {
      encoding: "base64",
      skipPreflight: options.skipPreflight ?? false,
      preflightCommitment: "confirmed",
    })
    .send();
};

export type Commitment = "processed" | "confirmed" | "finalized";
const RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

/** Polls until the signature reaches `commitment`; resolves to its `err` (null on success). */
export const waitForStatus = async (
  rpc: SendRpc,
  signature: Signature,
  options: { readonly commitment?: Commitment; readonly timeoutMs?: number; readonly pollMs?: number } = {},
): Promise<unknown> => {
  const commitment = options.commitment ?? "confirmed";
  const deadline = performance.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const { value } = await rpc.getSignatureStatuses([signature]).send();
    const status = value[0];
    if (status?.confirmationStatus && RANK[status.confirmationStatus] >= RANK[commitment]) return status.err;
    if (performance.now() > deadline) {
      throw new Error(`transaction ${signature} did not reach ${commitment} in time`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
};
