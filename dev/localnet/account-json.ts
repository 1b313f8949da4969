/** Accounts as `getAccountInfo` & co. return them: base64, base58 or jsonParsed (token accounts and mints). */
import { type EncodedAccount, getBase58Decoder, getBase64Decoder } from "@solana/kit";
import type { LiteSVM } from "litesvm";
import { choiceOption } from "./rpc-params.ts";
import { type AnyAccount, readMint, readTokenBalance } from "./token-accounts.ts";

export const ACCOUNT_ENCODINGS = ["base64", "base58", "jsonParsed"] as const;
export type AccountEncoding = (typeof ACCOUNT_ENCODINGS)[number];

// What a validator reports for rent-exempt accounts (u64::MAX).
const RENT_EPOCH_EXEMPT = 18446744073709551615n;

/** The encoding option of an account method (default base64; kit always sends one). */
export const accountEncoding = (config: Record<string, unknown>): AccountEncoding =>
  choiceOption(config, "encoding", ACCOUNT_ENCODINGS, "base64");

const parsedData = (svm: LiteSVM, account: EncodedAccount) => {
  const token = readTokenBalance(svm, account);
  if (token !== undefined) {
    const info = {
      isNative: false,
      mint: token.mint,
      owner: token.owner,
      state: token.state,
      tokenAmount: token.uiTokenAmount,
    };
    return { program: "spl-token", parsed: { type: "account", info }, space: account.data.length };
  }
  const mint = readMint(account);
  if (mint !== undefined) {
    const info = { ...mint, supply: mint.supply.toString() };
    return { program: "spl-token", parsed: { type: "mint", info }, space: account.data.length };
  }
  return undefined;
};

/** The `value` of an account reply, or null when the account does not exist. */
export const accountJson = (svm: LiteSVM, maybe: AnyAccount, encoding: AccountEncoding) => {
  if ("exists" in maybe && !maybe.exists) return null;
  const account = maybe as EncodedAccount;
  const parsed = encoding === "jsonParsed" ? parsedData(svm, account) : undefined;
  // A validator falls back to base64 when it cannot parse an account as asked.
  const data =
    parsed ??
    (encoding === "base58"
      ? [getBase58Decoder().decode(account.data), "base58"]
      : [getBase64Decoder().decode(account.data), "base64"]);
  return {
    data,
    executable: account.executable,
    lamports: account.lamports,
    owner: account.programAddress,
    rentEpoch: RENT_EPOCH_EXEMPT,
    space: account.data.length,
  };
};
