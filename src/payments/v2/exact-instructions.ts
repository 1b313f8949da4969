/**
 * The instructions the x402 "exact" scheme allows, sorted one by one: SetComputeUnitLimit and
 * SetComputeUnitPrice (under the official cap), one TransferChecked (legacy token or
 * Token-2022, four accounts: no multisig), one memo without accounts. A system transfer is
 * named as such (a SOL payment); anything else, or a second of a kind, is forbidden.
 */
import type { Address, Instruction } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { MEMO_PROGRAM_IDS } from "../../../core/payments/parsed-transaction.ts";
import type { PaymentRejectionReason } from "../../../core/payments/payment-rejected.ts";

export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
/** The official facilitator's cap: 5 lamports per compute unit. */
export const MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS = 5_000_000n;
/**
 * Our own cap on the limit (the official facilitator has none): the priority fee our fee payer
 * pays is price x limit, so at most 1,000,000 lamports. A transfer and a memo need ~10,000 units;
 * the official client asks 20,000.
 */
export const MAX_COMPUTE_UNIT_LIMIT = 200_000n;
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;
const TRANSFER_CHECKED = 12;
const SYSTEM_TRANSFER = 2;
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

export const littleEndian = (data: Uint8Array, from: number, bytes: number): bigint => {
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

export interface Shape {
  limits: number;
  prices: number;
  transfers: Array<ExactTransfer>;
  memos: Array<string>;
}

/** Sorts one instruction into the shape, or names why it is not allowed. */
export const classify = (instruction: Instruction, shape: Shape): PaymentRejectionReason | undefined => {
  const program = instruction.programAddress;
  const data = Uint8Array.from(instruction.data ?? []);
  if (program === COMPUTE_BUDGET_PROGRAM && data[0] === SET_COMPUTE_UNIT_LIMIT && data.length === 5) {
    shape.limits++;
    if (shape.limits > 1) return "exact-instruction-forbidden";
    return littleEndian(data, 1, 4) > MAX_COMPUTE_UNIT_LIMIT ? "exact-compute-price-too-high" : undefined;
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
  if (MEMO_PROGRAM_IDS.includes(program) && (instruction.accounts ?? []).length === 0) {
    shape.memos.push(new TextDecoder("utf-8", { fatal: true }).decode(data));
    return shape.memos.length > 1 ? "exact-instruction-forbidden" : undefined;
  }
  if (program === SYSTEM_PROGRAM && littleEndian(data, 0, 4) === BigInt(SYSTEM_TRANSFER)) return "sent-sol";
  return "exact-instruction-forbidden";
};
