/** Account methods: balances, account data, token accounts, rent. */
import type { Address } from "@solana/kit";
import { accountEncoding, accountJson } from "./account-json.ts";
import type { Chain } from "./chain.ts";
import { invalidParams } from "./rpc-failure.ts";
import {
  addressParam,
  configParam,
  integerParam,
  type Methods,
  type Params,
  withContext,
} from "./rpc-params.ts";
import { readTokenAccount, readTokenBalance, TOKEN_PROGRAMS } from "./token-accounts.ts";

const tokenAccountsByOwner = (chain: Chain, params: Params) => {
  const owner = addressParam(params, 0);
  const filter = configParam(params, 1);
  // The mint filter is checked as an address param is (same error).
  const mint = filter.mint === undefined ? undefined : addressParam([filter.mint], 0);
  const programId = filter.programId;
  if (programId !== undefined && !TOKEN_PROGRAMS.includes(programId as Address)) {
    throw invalidParams("Invalid param: unrecognized Token program id");
  }
  if (mint === undefined && programId === undefined)
    throw invalidParams("Invalid params: expected mint or programId");
  const encoding = accountEncoding(configParam(params, 2));
  const programs = programId === undefined ? TOKEN_PROGRAMS : [programId as Address];
  const value = programs
    .flatMap((program) => chain.svm.getProgramAccounts(program))
    .filter((account) => {
      const token = readTokenAccount(account);
      return token !== undefined && token.owner === owner && (mint === undefined || token.mint === mint);
    })
    .map((account) => ({ pubkey: account.address, account: accountJson(chain.svm, account, encoding) }));
  return withContext(chain.slot(), value);
};

const tokenAccountBalance = (chain: Chain, params: Params) => {
  const token = readTokenBalance(chain.svm, chain.svm.getAccount(addressParam(params, 0)));
  if (token === undefined) throw invalidParams("Invalid param: not a Token account");
  return withContext(chain.slot(), token.uiTokenAmount);
};

const multipleAccounts = (chain: Chain, params: Params) => {
  const addresses = params[0];
  if (!Array.isArray(addresses) || addresses.length > 100) {
    throw invalidParams("Invalid params: expected a list of at most 100 addresses");
  }
  const encoding = accountEncoding(configParam(params, 1));
  return withContext(
    chain.slot(),
    addresses.map((_, index) =>
      accountJson(chain.svm, chain.svm.getAccount(addressParam(addresses, index)), encoding),
    ),
  );
};

/** The account methods over `chain`. */
export const accountMethods = (chain: Chain): Methods => ({
  getBalance: (params) => withContext(chain.slot(), chain.svm.getBalance(addressParam(params, 0)) ?? 0n),
  getAccountInfo: (params) =>
    withContext(
      chain.slot(),
      accountJson(
        chain.svm,
        chain.svm.getAccount(addressParam(params, 0)),
        accountEncoding(configParam(params, 1)),
      ),
    ),
  getMultipleAccounts: (params) => multipleAccounts(chain, params),
  getTokenAccountBalance: (params) => tokenAccountBalance(chain, params),
  getTokenAccountsByOwner: (params) => tokenAccountsByOwner(chain, params),
  getMinimumBalanceForRentExemption: (params) =>
    chain.svm.minimumBalanceForRentExemption(BigInt(integerParam(params, 0, "data length"))),
});
