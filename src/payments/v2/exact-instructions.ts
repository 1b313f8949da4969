/**
 * The instructions the x402 "exact" scheme's static path allows (scheme_exact_svm.md §3.1),
 * sorted one by one: SetComputeUnitLimit and SetComputeUnitPrice (no other compute-budget
 * instruction), one TransferChecked (legacy token or Token-2022, four accounts: no multisig),
 * memos without accounts, and the Lighthouse assertions wallets such as Phantom and Solflare
 * add (held to the payer's own wallet and token account by the sponsor policy; the fee payer
 * may be in none of them, which the caller checks for every instruction). A system transfer is named as such (a SOL payment); a smart
 * wallet's program, or anything else, is forbidden. How many of each is allowed is the
 * sponsor policy's (sponsor-policy.ts).
 */
import type { Address, Instruction } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { MEMO_PROGRAM_IDS } from "../../../core/payments/parsed-transaction.ts";
import type { PaymentRejectionReason } from "../../../core/payments/payment-rejected.ts";

export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
/** Phantom's and Solflare's transaction assertions (the scheme says they MUST be allowed). */
export const LIGHTHOUSE_PROGRAM = "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95";
/** Smart-wallet programs whose wrapped transfers the scheme's simulation path would accept; we do not. */
export const SMART_WALLET_PROGRAMS: ReadonlyArray<string> = [
  "SQDS4ep65T869zMMBKyuUq6aD6EgTu8psMjkvj52pCf",
  "SMRTzfY6DfH5ik3TKiyLFfXexV8uSG3d2UksSCYdunG",
  "SWiGmQedKzMz1tiTqoJCWeGDnGXfNBp2PkXLkpCAtQo",
  "swigypWHEksbC64pWKwah1WTeh9JXwx8H1rJHLdbQMB",
  "GovER5Lthms3bLBqWub97yVrMmEogzX7xNjdXpPPCVZw",
  "CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d",
];
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
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

/** What a transaction's instructions are, counted: the sponsor policy decides what is too many. */
export interface Shape {
  /** The units of each SetComputeUnitLimit. */
  readonly limits: Array<bigint>;
  /** The micro-lamports per unit of each SetComputeUnitPrice. */
  readonly prices: Array<bigint>;
  readonly transfers: Array<ExactTransfer>;
  readonly memos: Array<string>;
  /** The accounts each Lighthouse assertion names (sponsor-policy.ts holds them to the payer's own). */
  readonly assertions: Array<ReadonlyArray<Address>>;
}

export const emptyShape = (): Shape => ({ limits: [], prices: [], transfers: [], memos: [], assertions: [] });

/** Sorts one instruction into the shape, or names why it is not allowed at all. */
export const classify = (instruction: Instruction, shape: Shape): PaymentRejectionReason | undefined => {
  const program = instruction.programAddress;
  const data = Uint8Array.from(instruction.data ?? []);
  const accounts = instruction.accounts ?? [];
  if (program === COMPUTE_BUDGET_PROGRAM) {
    if (accounts.length > 0) return "exact-compute-budget-invalid";
    if (data[0] === SET_COMPUTE_UNIT_LIMIT && data.length === 5) shape.limits.push(littleEndian(data, 1, 4));
    else if (data[0] === SET_COMPUTE_UNIT_PRICE && data.length === 9)
      shape.prices.push(littleEndian(data, 1, 8));
    // Heap frames, loaded-data limits and the rest widen what the sponsor pays for, and no payment needs them.
    else return "exact-compute-budget-invalid";
    return undefined;
  }
  if (isTokenProgram(program) && data[0] === TRANSFER_CHECKED) {
    const transfer = transferOf(instruction);
    if (transfer === undefined) return "exact-instruction-forbidden";
    shape.transfers.push(transfer);
    return undefined;
  }
  if (MEMO_PROGRAM_IDS.includes(program) && accounts.length === 0) {
    shape.memos.push(new TextDecoder("utf-8", { fatal: true }).decode(data));
    return undefined;
  }
  if (program === LIGHTHOUSE_PROGRAM) {
    // What they may name (the payer's own accounts only) is the policy's, once the transfer is known.
    shape.assertions.push(accounts.map((account) => account.address));
    return undefined;
  }
  if (program === SYSTEM_PROGRAM && littleEndian(data, 0, 4) === BigInt(SYSTEM_TRANSFER)) return "sent-sol";
  if (SMART_WALLET_PROGRAMS.includes(program)) return "exact-smart-wallet-unsupported";
  return "exact-instruction-forbidden";
};
