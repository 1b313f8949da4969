/**
 * The x402 "exact" scheme's rules for the client's partially signed Solana transaction, checked
 * before the fee payer signs anything: the fee payer is ours and appears in no instruction; the
 * instructions are those the scheme's static path allows, within the sponsor policy
 * (sponsor-policy.ts); exactly two required signers, the fee payer and the transfer's
 * authority, whose signature is valid; every account in the message used by an instruction (the
 * decompiled message drops unused ones, but the fee payer's signature covers the bytes the
 * client sent, and each extra signer costs it 5,000 lamports). `checkTransfer` then compares the
 * transfer with what we issued. Address lookup tables are refused: no account may hide there.
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
import * as Result from "effect/Result";
import {
  type PaymentRejected,
  type PaymentRejectionReason,
  rejected,
} from "../../../core/payments/payment-rejected.ts";
import { classify, type ExactTransfer, emptyShape } from "./exact-instructions.ts";
import {
  REQUIRED_SIGNERS,
  refusalOfAssertions,
  refusalOfShape,
  type SponsorPolicy,
  sponsorFeeOf,
} from "./sponsor-policy.ts";

export type { ExactTransfer } from "./exact-instructions.ts";

/** A base64 Solana transaction is at most 1232 bytes. */
const MAX_TRANSACTION_BASE64 = 1700;

export interface ExactTransaction {
  readonly transaction: Transaction;
  readonly transfer: ExactTransfer;
  /** The memos' texts, in order. */
  readonly memos: ReadonlyArray<string>;
  /** The most the fee payer pays for it, in lamports (the policy's bound holds). */
  readonly sponsorFee: bigint;
}

type Checked<A> = Result.Result<A, PaymentRejected>;
const refuse = (reason: PaymentRejectionReason): Checked<never> => Result.fail(rejected(reason));

const decode = (base64: string) => {
  if (base64.length > MAX_TRANSACTION_BASE64) return undefined;
  try {
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    if (!("lifetimeToken" in compiled)) return undefined;
    // Legacy and v0 messages only, and no address lookup table: every account in plain sight.
    if (compiled.version !== 0 && compiled.version !== "legacy") return undefined;
    if (compiled.version === 0 && (compiled.addressTableLookups?.length ?? 0) > 0) return undefined;
    return { transaction, compiled, message: decompileTransactionMessage(compiled) };
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

type Compiled = NonNullable<ReturnType<typeof decode>>["compiled"];

/** Exactly the fee payer and `authority` must sign, and every account is used by an instruction. */
const refusalOfAccounts = (compiled: Compiled, authority: Address): PaymentRejectionReason | undefined => {
  const { header, staticAccounts, instructions } = compiled;
  if (header.numSignerAccounts !== REQUIRED_SIGNERS || staticAccounts[1] !== authority)
    return "exact-signers-invalid";
  const used = new Set<number>([0]); // the fee payer: used by paying
  for (const instruction of instructions) {
    used.add(instruction.programAddressIndex);
    for (const index of instruction.accountIndices ?? []) used.add(index);
  }
  return used.size === staticAccounts.length ? undefined : "exact-account-unreferenced";
};

/** The transaction's shape and signatures under the scheme's rules and the sponsor policy; nothing is signed here. */
export const checkExactTransaction = async (
  base64: string,
  feePayer: Address,
  policy: SponsorPolicy,
): Promise<Checked<ExactTransaction>> => {
  const decoded = decode(base64);
  if (decoded === undefined) return refuse("exact-payload-malformed");
  const { transaction, compiled, message } = decoded;
  if (message.feePayer.address !== feePayer) return refuse("exact-fee-payer-misused");
  const instructions = message.instructions;
  if (
    instructions.some((instruction) => (instruction.accounts ?? []).some((meta) => meta.address === feePayer))
  )
    return refuse("exact-fee-payer-misused");
  const shape = emptyShape();
  for (const instruction of instructions) {
    let reason: PaymentRejectionReason | undefined;
    try {
      reason = classify(instruction, shape);
    } catch {
      reason = "exact-payload-malformed";
    }
    if (reason !== undefined) return refuse(reason);
  }
  const shapeRefusal = refusalOfShape(shape, instructions.length, policy);
  if (shapeRefusal !== undefined) return refuse(shapeRefusal);
  const [transfer] = shape.transfers;
  if (transfer === undefined) return refuse("exact-transfer-mismatch");
  const accountsRefusal = refusalOfAccounts(compiled, transfer.authority);
  if (accountsRefusal !== undefined) return refuse(accountsRefusal);
  const assertionsRefusal = refusalOfAssertions(shape, transfer);
  if (assertionsRefusal !== undefined) return refuse(assertionsRefusal);
  // From the authority's own associated token account: a source it does not own could be locked
  // (settlement-locks.ts) by anyone who names it, keeping its owner's payments waiting.
  const [ownSource] = await findAssociatedTokenPda({
    owner: transfer.authority,
    mint: transfer.mint,
    tokenProgram: transfer.program,
  }).catch(() => [undefined]);
  if (transfer.source !== ownSource) return refuse("exact-transfer-mismatch");
  if (!(await verifyClientSignatures(transaction, feePayer))) return refuse("exact-signature-invalid");
  const sponsorFee = sponsorFeeOf(REQUIRED_SIGNERS, shape.limits[0] ?? 0n, shape.prices[0] ?? 0n);
  return Result.succeed({ transaction, transfer, memos: shape.memos, sponsorFee });
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
