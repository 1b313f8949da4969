/**
 * SPL token account and mint decoding for balances, `jsonParsed` accounts and the pre/post
 * token balances of a transaction. Token-2022 accounts share the base layout (first 165 / 82
 * bytes), so both programs are read the same way.
 */
import {
  type Address,
  type EncodedAccount,
  isNone,
  type MaybeEncodedAccount,
  unwrapOption,
} from "@solana/kit";
import { AccountState, getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { LiteSVM } from "litesvm";

const TOKEN_2022_PROGRAM_ADDRESS = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" as Address;
export const TOKEN_PROGRAMS: ReadonlyArray<Address> = [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS];

const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;
// Token-2022 puts an account-type byte right after the base account layout: 1 mint, 2 account.
const ACCOUNT_TYPE_ACCOUNT = 2;
const ACCOUNT_TYPE_MINT = 1;

export interface TokenAccountInfo {
  readonly mint: Address;
  readonly owner: Address;
  readonly amount: bigint;
  readonly state: "initialized" | "frozen";
  readonly programId: Address;
}

export interface MintInfo {
  readonly decimals: number;
  readonly supply: bigint;
  readonly mintAuthority: Address | null;
  readonly freezeAuthority: Address | null;
  readonly isInitialized: boolean;
}

export interface UiTokenAmount {
  readonly amount: string;
  readonly decimals: number;
  readonly uiAmount: number | null;
  readonly uiAmountString: string;
}

/** An account as LiteSVM returns it, by address (maybe missing) or from a program scan. */
export type AnyAccount = MaybeEncodedAccount | EncodedAccount;

const tokenData = (account: AnyAccount) =>
  ("exists" in account && !account.exists) || !TOKEN_PROGRAMS.includes(account.programAddress)
    ? undefined
    : account.data;

/** The token account held at `account`, if it is an initialized SPL token account. */
export const readTokenAccount = (account: AnyAccount): TokenAccountInfo | undefined => {
  const data = tokenData(account);
  if (data === undefined || !("programAddress" in account)) return undefined;
  const sized =
    data.length === TOKEN_ACCOUNT_SIZE ||
    (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_ACCOUNT);
  if (!sized) return undefined;
  const token = getTokenDecoder().decode(data.subarray(0, TOKEN_ACCOUNT_SIZE));
  if (token.state === AccountState.Uninitialized) return undefined;
  return {
    mint: token.mint,
    owner: token.owner,
    amount: token.amount,
    state: token.state === AccountState.Frozen ? "frozen" : "initialized",
    programId: account.programAddress,
  };
};

/** The mint held at `account`, if it is an SPL mint. */
export const readMint = (account: AnyAccount): MintInfo | undefined => {
  const data = tokenData(account);
  if (data === undefined) return undefined;
  const sized =
    data.length === MINT_SIZE ||
    (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_MINT);
  if (!sized) return undefined;
  const mint = getMintDecoder().decode(data.subarray(0, MINT_SIZE));
  return {
    decimals: mint.decimals,
    supply: mint.supply,
    mintAuthority: isNone(mint.mintAuthority) ? null : unwrapOption(mint.mintAuthority),
    freezeAuthority: isNone(mint.freezeAuthority) ? null : unwrapOption(mint.freezeAuthority),
    isInitialized: mint.isInitialized,
  };
};

/** Base units -> decimal text without trailing zeros ("0.1", "1000", "0"). */
export const uiAmountString = (amount: bigint, decimals: number): string => {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
};

/** The `uiTokenAmount` object of balances and parsed accounts. */
export const uiTokenAmount = (amount: bigint, decimals: number): UiTokenAmount => {
  const text = uiAmountString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text };
};

/** A token account with its amount as `uiTokenAmount` (the decimals read from its mint). */
export interface TokenBalance extends TokenAccountInfo {
  readonly uiTokenAmount: UiTokenAmount;
}

/** The token account held at `account` and its balance, if it is one and its mint can be read. */
export const readTokenBalance = (svm: LiteSVM, account: AnyAccount): TokenBalance | undefined => {
  const token = readTokenAccount(account);
  const mint = token === undefined ? undefined : readMint(svm.getAccount(token.mint));
  return token === undefined || mint === undefined
    ? undefined
    : { ...token, uiTokenAmount: uiTokenAmount(token.amount, mint.decimals) };
};
