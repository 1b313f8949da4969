/**
 * The x402 "exact" scheme's rules for the client's partially signed Solana transaction, checked
 * before the fee payer signs anything: the fee payer is ours and appears in no instruction;
 * only compute-unit limit and price (under the cap), one TransferChecked and one optional memo;
 * every client signature valid. `checkTransfer` then compares the transfer with what we issued.
 * Address lookup tables are refused (decompiling fails without them): no account may hide there.
 */
import {
  type Address,
  decompileTransactionMessage,
  getAddressEncoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Transaction,
  verifySignature,
} from "@solana/kit";
import { findAssociatedTokenPda } from "@solana-program/token";
import { Result } from "effect";
import {
  type PaymentRejected,
  type PaymentRejectionReason,
  rejected,
} from "../../../core/payments/payment-rejected.ts";
import { classify, type ExactTransfer, type Shape } from "./exact-instructions.ts";

export type { ExactTransfer } from "./exact-instructions.ts";

/** A base64 Solana transaction is at most 1232 bytes. */
const MAX_TRANSACTION_BASE64 = 1700;

export interface ExactTransaction {
  readonly transaction: Transaction;
  readonly transfer: ExactTransfer;
  /** The memo's text, when there is one. */
  readonly memo: string | undefined;
}

type Checked<A> = Result.Result<A, PaymentRejected>;
const refuse = (reason: PaymentRejectionReason): Checked<never> => Result.fail(rejected(reason));

const decode = (base64: string) => {
  if (base64.length > MAX_TRANSACTION_BASE64) return undefined;
  try {
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    if (!("lifetimeToken" in compiled)) return undefined;
    return { transaction, message: decompileTransactionMessage(compiled) };
  } catch {
    return undefined;
  }
};

const verifyClientSignatures = async (transaction: Transaction, feePayer: string): Promise<boolean> => {
  const signers = Object.entries(transaction.signatures).filter(([address]) => address !== feePayer);
  const checks = signers.map(async ([address, signature]) => {
    if (signature === null) return false;
    const key = await crypto.subtle.importKey(
      "raw",
      getAddressEncoder().encode(address as Address),
      "Ed25519",
      false,
      ["verify"],
    );
    return verifySignature(key, signature, transaction.messageBytes);
  });
  return (await Promise.all(checks)).every(Boolean);
};

/** The transaction's shape and signatures under the scheme's rules; nothing is signed here. */
export const checkExactTransaction = async (
  base64: string,
  feePayer: Address,
): Promise<Checked<ExactTransaction>> => {
  const decoded = decode(base64);
  if (decoded === undefined) return refuse("exact-payload-malformed");
  const { transaction, message } = decoded;
  if (message.feePayer.address !== feePayer) return refuse("exact-fee-payer-misused");
  const instructions = message.instructions;
  if (
    instructions.some((instruction) => (instruction.accounts ?? []).some((meta) => meta.address === feePayer))
  )
    return refuse("exact-fee-payer-misused");
  const shape: Shape = { limits: 0, prices: 0, transfers: [], memos: [] };
  for (const instruction of instructions) {
    let reason: PaymentRejectionReason | undefined;
    try {
      reason = classify(instruction, shape);
    } catch {
      reason = "exact-payload-malformed";
    }
    if (reason !== undefined) return refuse(reason);
  }
  const [transfer] = shape.transfers;
  if (transfer === undefined) return refuse("exact-transfer-mismatch");
  if (!(await verifyClientSignatures(transaction, feePayer))) return refuse("exact-signature-invalid");
  return Result.succeed({ transaction, transfer, memo: shape.memos[0] });
};

/** What the transfer must be: the issued amount of the issued mint into `payTo`'s associated token account. */
export interface ExactTerms {
  readonly units: bigint;
  readonly mint: string;
  readonly payTo: string;
  readonly decimals: number;
}

export const checkTransfer = async (transfer: ExactTransfer, terms: ExactTerms): Promise<Checked<void>> => {
  if (transfer.mint !== terms.mint) return refuse("sent-other-token");
  const [destination] = await findAssociatedTokenPda({
    owner: terms.payTo as Address,
    mint: terms.mint as Address,
    tokenProgram: transfer.program,
  }).catch(() => [undefined]);
  if (
    transfer.amount !== terms.units ||
    transfer.decimals !== terms.decimals ||
    transfer.destination !== destination
  )
    return refuse("exact-transfer-mismatch");
  return Result.void;
};
