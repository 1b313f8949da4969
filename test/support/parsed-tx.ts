/**
 * Builds `getTransaction` replies in the real `jsonParsed` shape (with the fields the verifier
 * ignores, such as `status`, `logMessages`, `uiAmountString`) and decodes them through the
 * core schema, so tests exercise the same path as an RPC reply. Also the expectation and
 * error texts that payment-verification tests check them against.
 */
import { expect } from "bun:test";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { encodeBase58 } from "../../core/base58.ts";
import { BaseUnits } from "../../core/payments/money.ts";
import { ParsedTransaction } from "../../core/payments/parsed-transaction.ts";
import type { PaymentRejected } from "../../core/payments/payment-rejected.ts";
import type { TransferExpectation, verifyTransfer } from "../../core/payments/verify-transfer.ts";
import { kindOf, renderedTexts } from "./rejection-kind.ts";
import { addressOf, PAYER, STRANGER, USDC_MINT, WALLET } from "./test-addresses.ts";

export { addressOf, OTHER_MINT, PAYER, STRANGER, USDC_MINT, WALLET } from "./test-addresses.ts";
export const SYSTEM_PROGRAM = "11111111111111111111111111111111";
export const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
/** Block time (epoch seconds) of built transactions, and a `now` 20 s later. */
export const BLOCK_TIME = 1_750_000_000;
export const NOW = BLOCK_TIME * 1000 + 20_000;
/**
 * A block time (epoch seconds) 30 s ago, for transactions checked against the real clock
 * (BLOCK_TIME is in 2025).
 */
/** A block time of this second: recent, and not before an app started earlier in the test. */
export const recentBlockTime = () => Math.floor(Date.now() / 1000);

/** One token account touched by the transaction; `pre` undefined = created in this transaction. */
export interface TokenAccount {
  readonly owner: string;
  readonly mint: string;
  readonly pre: bigint | undefined;
  readonly post: bigint;
  readonly decimals?: number;
}

export interface TxSpec {
  readonly blockTime?: number | null;
  /** `getTransaction` with meta null (not yet executed/confirmed in the node's view). */
  readonly noMeta?: boolean;
  readonly err?: unknown;
  readonly tokens?: ReadonlyArray<TokenAccount>;
  /** Plain (SOL) accounts beyond the fee payer, with lamports before and after. */
  readonly lamports?: ReadonlyArray<{
    readonly account: string;
    readonly pre: number;
    readonly post: number;
  }>;
  readonly memos?: ReadonlyArray<string>;
  readonly innerMemos?: ReadonlyArray<string>;
  /** Extra top-level transferChecked instructions (amount, destination token-account index). */
  /** `authority` null: a multisig owner (jsonParsed then names `multisigAuthority` and `signers`). */
  readonly transfers?: ReadonlyArray<{
    readonly amount: bigint;
    readonly to: number;
    readonly authority?: string | null;
  }>;
}

const tokenBalance = (accountIndex: number, account: TokenAccount, amount: bigint) => {
  const decimals = account.decimals ?? 6;
  const ui = Number(amount) / 10 ** decimals;
  return {
    accountIndex,
    mint: account.mint,
    owner: account.owner,
    programId: TOKEN_PROGRAM_ADDRESS,
    uiTokenAmount: { amount: amount.toString(), decimals, uiAmount: ui, uiAmountString: String(ui) },
  };
};

const memoIx = (text: string) => ({
  parsed: text,
  program: "spl-memo",
  programId: MEMO_PROGRAM,
  stackHeight: 1,
});

/** The raw JSON object an RPC node would send for `spec`. */
export const rawTx = (spec: TxSpec): Record<string, unknown> => {
  const tokens = spec.tokens ?? [];
  const lamports = spec.lamports ?? [];
  const firstToken = 1 + lamports.length;
  const keys = [
    { pubkey: PAYER, signer: true, source: "transaction", writable: true },
    ...lamports.map((row) => ({ pubkey: row.account, signer: false, source: "transaction", writable: true })),
    ...tokens.map((_, i) => ({
      pubkey: addressOf(100 + i),
      signer: false,
      source: "transaction",
      writable: true,
    })),
    ...[TOKEN_PROGRAM_ADDRESS, SYSTEM_PROGRAM, MEMO_PROGRAM].map((pubkey) => ({
      pubkey,
      signer: false,
      source: "transaction",
      writable: false,
    })),
  ];
  const fee = 5000;
  const preBalances = [
    1_000_000_000,
    ...lamports.map((row) => row.pre),
    // A token account created by this transaction held no lamports before it.
    ...tokens.map((row) => (row.pre === undefined ? 0 : 2_039_280)),
    1,
    1,
    1,
  ];
  const sent = lamports.reduce((sum, row) => sum + Math.max(0, row.post - row.pre), 0);
  const postBalances = [
    1_000_000_000 - fee - sent,
    ...lamports.map((row) => row.post),
    ...tokens.map(() => 2_039_280),
    1,
    1,
    1,
  ];
  const source = tokens.findIndex((row) => row.owner === PAYER);
  const autoTransfers: NonNullable<TxSpec["transfers"]> = tokens.flatMap((row, i) =>
    row.owner !== PAYER && row.post > (row.pre ?? 0n) ? [{ amount: row.post - (row.pre ?? 0n), to: i }] : [],
  );
  const transferIx = (amount: bigint, to: number, authority: string | null = PAYER) => ({
    parsed: {
      info: {
        ...(authority === null ? { multisigAuthority: STRANGER, signers: [PAYER] } : { authority }),
        destination: addressOf(100 + to),
        mint: tokens[to]?.mint ?? USDC_MINT,
        source: addressOf(100 + Math.max(0, source)),
        tokenAmount: { amount: amount.toString(), decimals: tokens[to]?.decimals ?? 6 },
      },
      type: "transferChecked",
    },
    program: "spl-token",
    programId: TOKEN_PROGRAM_ADDRESS,
    stackHeight: null,
  });
  const solIx = lamports.map((row) => ({
    parsed: {
      info: { destination: row.account, lamports: row.post - row.pre, source: PAYER },
      type: "transfer",
    },
    program: "system",
    programId: SYSTEM_PROGRAM,
    stackHeight: null,
  }));
  const err = spec.err ?? null;
  const meta = {
    computeUnitsConsumed: 6200,
    err,
    fee,
    innerInstructions:
      (spec.innerMemos ?? []).length === 0
        ? []
        : [{ index: 0, instructions: (spec.innerMemos ?? []).map(memoIx) }],
    loadedAddresses: { readonly: [], writable: [] },
    logMessages: ["Program log: Instruction: TransferChecked"],
    postBalances,
    postTokenBalances: tokens.map((row, i) => tokenBalance(firstToken + i, row, row.post)),
    preBalances,
    preTokenBalances: tokens.flatMap((row, i) =>
      row.pre === undefined ? [] : [tokenBalance(firstToken + i, row, row.pre)],
    ),
    rewards: [],
    status: err === null ? { Ok: null } : { Err: err },
  };
  return {
    blockTime: spec.blockTime === undefined ? BLOCK_TIME : spec.blockTime,
    meta: spec.noMeta === true ? null : meta,
    slot: 345_678_901,
    transaction: {
      message: {
        accountKeys: keys,
        addressTableLookups: [],
        instructions: [
          ...solIx,
          ...(spec.transfers ?? autoTransfers).map((t) => transferIx(t.amount, t.to, t.authority)),
          ...(spec.memos ?? []).map(memoIx),
        ],
        recentBlockhash: addressOf(77),
      },
      signatures: [encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => (i * 13 + 5) & 0xff))],
    },
    version: 0,
  };
};

/** `spec` as the verifier sees it: the raw reply decoded through the core schema. */
export const parsedTx = (spec: TxSpec): ParsedTransaction =>
  Schema.decodeUnknownSync(ParsedTransaction)(rawTx(spec));

/** The payer's USDC account, debited by `amount` (the usual other side of a payment). */
export const payerUsdc = (amount: bigint): TokenAccount => ({
  owner: PAYER,
  mint: USDC_MINT,
  pre: 5_000_000n,
  post: 5_000_000n - amount,
});

/** A plain USDC payment of `amount` base units from PAYER to WALLET's existing token account. */
export const usdcPayment = (amount: bigint, extra: Omit<TxSpec, "tokens"> = {}): ParsedTransaction =>
  parsedTx({
    ...extra,
    tokens: [payerUsdc(amount), { owner: WALLET, mint: USDC_MINT, pre: 250_000n, post: 250_000n + amount }],
  });

/** A SOL movement of `lamports` into `account`. */
export const lamportsTo = (account: string, lamports: number) => ({
  account,
  pre: 1_000_000,
  post: 1_000_000 + lamports,
});

export const MEMO_PREFIX = "docs-chat:";

/** What the verifier expects: `claimed` base units of USDC_MINT to WALLET, checked at NOW. */
export const expectation = (
  claimed: bigint,
  memo: Partial<TransferExpectation["memo"]> = {},
): TransferExpectation => ({
  usdcMint: USDC_MINT,
  wallet: WALLET,
  claimed: BaseUnits(claimed),
  now: NOW,
  memo: { prefix: MEMO_PREFIX, expected: "ref-abc123", required: false, ...memo },
});

/**
 * Asserts the failure's kind (its public code, as kindOf names it) and that its texts explain
 * what to check; returns the texts a client reads.
 */
export const failure = (result: ReturnType<typeof verifyTransfer>, kind: string) => {
  if (Result.isSuccess(result)) throw new Error(`expected ${kind}, got success`);
  const error: PaymentRejected = result.failure;
  expect(kindOf(error)).toBe(kind);
  const texts = renderedTexts(error);
  expect(texts.error.length).toBeGreaterThan(0);
  for (const word of ["USDC", "SOL", "amount", "recipient", "confirm", WALLET, USDC_MINT])
    expect(texts.details).toContain(word);
  return texts;
};
