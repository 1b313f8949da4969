/**
 * Balances of a transaction's accounts at one moment: lamports for every key, and a token
 * balance for every key that is an initialized SPL token account. Taken before and after
 * execution, they become `pre/postBalances` and `pre/postTokenBalances`.
 */
import type { Address } from "@solana/kit";
import type { LiteSVM } from "litesvm";
import { readTokenBalance } from "./token-accounts.ts";
import type { TokenBalanceJson } from "./tx-record.ts";

export interface BalanceSnapshot {
  readonly lamports: ReadonlyArray<bigint>;
  readonly tokens: ReadonlyArray<TokenBalanceJson>;
}

/** Lamports and token balances of `keys`, in key order. */
export const snapshotBalances = (svm: LiteSVM, keys: ReadonlyArray<Address>): BalanceSnapshot => {
  const tokens: Array<TokenBalanceJson> = [];
  const lamports = keys.map((key, accountIndex) => {
    const account = svm.getAccount(key);
    const token = readTokenBalance(svm, account);
    if (token !== undefined) {
      tokens.push({
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: token.programId,
        uiTokenAmount: token.uiTokenAmount,
      });
    }
    return account.exists ? account.lamports : 0n;
  });
  return { lamports, tokens };
};
