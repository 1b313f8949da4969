/**
 * The part of a `getTransaction` reply (encoding `jsonParsed`) that verification reads.
 * Decoding a reply through this schema is what keeps a malformed or hostile RPC answer from
 * ever reaching the money rules: anything that does not fit is rejected, never guessed at.
 */
import * as Schema from "effect/Schema";

const UiTokenAmount = Schema.Struct({
  amount: Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{1,30}$/))),
  decimals: Schema.Int,
});

export const TokenBalance = Schema.Struct({
  accountIndex: Schema.Int,
  mint: Schema.String,
  owner: Schema.optional(Schema.String),
  uiTokenAmount: UiTokenAmount,
});
export type TokenBalance = typeof TokenBalance.Type;

const AccountKey = Schema.Struct({ pubkey: Schema.String });

/** A parsed instruction (memo, transfer...) or a partially decoded one; we only read memos. */
const Instruction = Schema.Struct({
  program: Schema.optional(Schema.String),
  programId: Schema.String,
  parsed: Schema.optional(Schema.Unknown),
});

export const ParsedTransaction = Schema.Struct({
  slot: Schema.Int,
  blockTime: Schema.NullOr(Schema.Int),
  meta: Schema.NullOr(
    Schema.Struct({
      err: Schema.Unknown,
      fee: Schema.Int,
      preBalances: Schema.Array(Schema.Int),
      postBalances: Schema.Array(Schema.Int),
      // Required: without the pre balances a new-looking row could pass off a whole balance as received.
      preTokenBalances: Schema.Array(TokenBalance),
      postTokenBalances: Schema.Array(TokenBalance),
      innerInstructions: Schema.optional(
        Schema.NullOr(
          Schema.Array(Schema.Struct({ index: Schema.Int, instructions: Schema.Array(Instruction) })),
        ),
      ),
    }),
  ),
  transaction: Schema.Struct({
    signatures: Schema.Array(Schema.String),
    message: Schema.Struct({
      accountKeys: Schema.Array(AccountKey),
      instructions: Schema.Array(Instruction),
    }),
  }),
});
export type ParsedTransaction = typeof ParsedTransaction.Type;

export const MEMO_PROGRAM_IDS: ReadonlyArray<string> = [
  "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
  // v4, the default of @solana-program/memo 0.15.
  "Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH",
];

/** Memo texts carried by the transaction's top-level and inner instructions. */
export const memosOf = (tx: ParsedTransaction): ReadonlyArray<string> => {
  const inner = (tx.meta?.innerInstructions ?? []).flatMap((group) => group.instructions);
  return [...tx.transaction.message.instructions, ...inner]
    .filter((ix) => MEMO_PROGRAM_IDS.includes(ix.programId) && typeof ix.parsed === "string")
    .map((ix) => ix.parsed as string);
};
