/** What the local chain remembers of each executed transaction. */
import type { TransactionMetadata } from "litesvm";
import type { UiTokenAmount } from "./token-accounts.ts";
import type { TransactionErrorJson } from "./tx-error.ts";
import type { WireTransaction } from "./wire.ts";

export interface TokenBalanceJson {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string;
  readonly programId: string;
  readonly uiTokenAmount: UiTokenAmount;
}

export interface InnerInstructionRecord {
  readonly programIdIndex: number;
  readonly accounts: ReadonlyArray<number>;
  readonly data: Uint8Array;
  readonly stackHeight: number;
}

export interface TxRecord {
  readonly signature: string;
  readonly wire: WireTransaction;
  readonly slot: number;
  /** Seconds since the epoch, from the wall clock plus the test offset. */
  readonly blockTime: number;
  /** Wall-clock ms from which the transaction counts as confirmed. */
  readonly confirmAtMs: number;
  readonly err: TransactionErrorJson | null;
  readonly fee: number;
  readonly preBalances: ReadonlyArray<bigint>;
  readonly postBalances: ReadonlyArray<bigint>;
  readonly preTokenBalances: ReadonlyArray<TokenBalanceJson>;
  readonly postTokenBalances: ReadonlyArray<TokenBalanceJson>;
  readonly logMessages: ReadonlyArray<string>;
  readonly innerInstructions: ReadonlyArray<{
    index: number;
    instructions: ReadonlyArray<InnerInstructionRecord>;
  }>;
  readonly computeUnitsConsumed: bigint;
}

/** LiteSVM's inner instructions, grouped by top-level instruction; empty groups left out, as a validator does. */
export const innerInstructionsOf = (meta: TransactionMetadata): TxRecord["innerInstructions"] =>
  meta
    .innerInstructions()
    .map((group, index) => ({
      index,
      instructions: group.map((inner) => ({
        programIdIndex: inner.instruction().programIdIndex(),
        accounts: Array.from(inner.instruction().accounts()),
        data: inner.instruction().data(),
        stackHeight: inner.stackHeight(),
      })),
    }))
    .filter((group) => group.instructions.length > 0);
