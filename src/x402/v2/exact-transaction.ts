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
  type Instruction,
  type Transaction,
  verifySignature,
} from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { Result } from "effect";
import {
  type PaymentRejected,
  type PaymentRejectionReason,
  rejected,
} from "../../../core/payment-rejected.ts";

export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbatqjBUjvEuLcAkUMzVpJWwpeNUtWJYvKxe";
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
/** The official facilitator's cap: 5 lamports per compute unit. */
export const MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS = 5_000_000n;
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;
const TRANSFER_CHECKED = 12;
const SYSTEM_TRANSFER = 2;
/** A base64 Solana transaction is at most 1232 bytes. */
const MAX_TRANSACTION_BASE64 = 1700;

/** The one transfer of an allowed transaction. */
export interface ExactTransfer {
  readonly program: Address;
  readonly source: Address;
  readonly mint: Address;
  readonly destination: Address;
  readonly authority: Address;
  readonly amount: bigint;
  readonly decimals: number;
}

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

const littleEndian = (data: Uint8Array, from: number, bytes: number): bigint => {
  let value = 0n;
  for (let index = from + bytes - 1; index >= from; index--) value = (value << 8n) + BigInt(data[index] ?? 0);
  return value;
};

const isTokenProgram = (program: string) =>
  program === TOKEN_PROGRAM_ADDRESS || program === TOKEN_2022_PROGRAM;

/** The transfer of a TransferChecked instruction (source, mint, destination, authority; no multisig). */
const transferOf = (instruction: Instruction): ExactTransfer | undefined => {
  const data = instruction.data ?? new Uint8Array();
  const accounts = instruction.accounts ?? [];
  const [source, mint, destination, authority] = accounts;
  if (data.length !== 10 || accounts.length !== 4 || authority === undefined) return undefined;
  if (source === undefined || mint === undefined || destination === undefined) return undefined;
  return {
    program: instruction.programAddress,
    source: source.address,
    mint: mint.address,
    destination: destination.address,
    authority: authority.address,
    amount: littleEndian(Uint8Array.from(data), 1, 8),
    decimals: data[9] ?? 0,
  };
};

interface Shape {
  limits: number;
  prices: number;
  transfers: Array<ExactTransfer>;
  memos: Array<string>;
}

/** Sorts one instruction into the shape, or names why it is not allowed. */
const classify = (instruction: Instruction, shape: Shape): PaymentRejectionReason | undefined => {
  const program = instruction.programAddress;
  const data = Uint8Array.from(instruction.data ?? []);
  if (program === COMPUTE_BUDGET_PROGRAM && data[0] === SET_COMPUTE_UNIT_LIMIT && data.length === 5) {
    shape.limits++;
    return shape.limits > 1 ? "exact-instruction-forbidden" : undefined;
  }
  if (program === COMPUTE_BUDGET_PROGRAM && data[0] === SET_COMPUTE_UNIT_PRICE && data.length === 9) {
    shape.prices++;
    if (shape.prices > 1) return "exact-instruction-forbidden";
    return littleEndian(data, 1, 8) > MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS
      ? "exact-compute-price-too-high"
      : undefined;
  }
  if (isTokenProgram(program) && data[0] === TRANSFER_CHECKED) {
    const transfer = transferOf(instruction);
    if (transfer === undefined) return "exact-instruction-forbidden";
    shape.transfers.push(transfer);
    return shape.transfers.length > 1 ? "exact-instruction-forbidden" : undefined;
  }
  if (program === MEMO_PROGRAM && (instruction.accounts ?? []).length === 0) {
    shape.memos.push(new TextDecoder("utf-8", { fatal: true }).decode(data));
    return shape.memos.length > 1 ? "exact-instruction-forbidden" : undefined;
  }
  if (program === SYSTEM_PROGRAM && littleEndian(data, 0, 4) === BigInt(SYSTEM_TRANSFER)) return "sent-sol";
  return "exact-instruction-forbidden";
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
