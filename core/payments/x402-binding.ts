/**
 * What ties an X-Payment-Authorization to the request it pays, beyond the transfer verifier's
 * checks (amount, mint, recipient, confirmation): the terms the client states must be ours,
 * and every token transfer into the recipient's accounts must be made by the key that signed
 * the authorization. The amount, address and network the client states are never used to
 * verify anything: the issued request and the chain are.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { parseDecimalUnits } from "./money.ts";
import type { ParsedTransaction } from "./parsed-transaction.ts";
import { type PaymentRejected, rejected } from "./payment-rejected.ts";
import type { PaymentAuthorization } from "./x402.ts";
import type { IssuedPayment } from "./x402-ledger.ts";

/** The classic SPL Token program and Token-2022. */
export const TOKEN_PROGRAM_IDS: ReadonlyArray<string> = [
  "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
];

/** The stated recipient, mint and network are the issued ones, and the stated amount covers the price. */
export const checkStatedTerms = (
  authorization: PaymentAuthorization,
  issued: IssuedPayment,
): Result.Result<void, PaymentRejected> => {
  const stated = parseDecimalUnits(authorization.actual_amount);
  const matches =
    authorization.payment_address === issued.payTo &&
    authorization.asset_address === issued.mint &&
    authorization.network === issued.network &&
    Result.isSuccess(stated) &&
    stated.success >= issued.units;
  return matches ? Result.void : Result.fail(rejected("authorization-mismatch", { claimed: issued.units }));
};

/** A token transfer as `jsonParsed` shows it; `authority` is absent for a multisig owner. */
const TokenTransfer = Schema.Struct({
  type: Schema.Literals(["transfer", "transferChecked"]),
  info: Schema.Struct({
    destination: Schema.String,
    authority: Schema.optional(Schema.String),
  }),
});
const decodeTransfer = Schema.decodeUnknownOption(TokenTransfer);

/** Token accounts of `mint` that `owner` holds in this transaction, by address. */
const accountsOwnedBy = (tx: ParsedTransaction, owner: string, mint: string): ReadonlySet<string> => {
  const balances = [...(tx.meta?.preTokenBalances ?? []), ...(tx.meta?.postTokenBalances ?? [])];
  const keys = tx.transaction.message.accountKeys;
  return new Set(
    balances
      .filter((balance) => balance.owner === owner && balance.mint === mint)
      .flatMap((balance) => keys[balance.accountIndex]?.pubkey ?? []),
  );
};

/**
 * Every token transfer into the recipient's accounts of the mint (top level or inner) has
 * `authority` as its authority, and there is at least one. Without this, a payer could present
 * someone else's transfer that happens to carry the memo, or a program could pay on its behalf.
 */
export const checkTransferAuthority = (
  tx: ParsedTransaction,
  terms: { readonly payTo: string; readonly mint: string; readonly authority: string },
): Result.Result<void, PaymentRejected> =>
  soleTransferAuthority(tx, terms) === terms.authority
    ? Result.void
    : Result.fail(rejected("transfer-authority-mismatch"));

/** The authorities of the token transfers into the recipient's accounts of the mint (top level or inner). */
const transferAuthorities = (
  tx: ParsedTransaction,
  terms: { readonly payTo: string; readonly mint: string },
): ReadonlyArray<string | undefined> => {
  const ours = accountsOwnedBy(tx, terms.payTo, terms.mint);
  const inner = (tx.meta?.innerInstructions ?? []).flatMap((group) => group.instructions);
  return [...tx.transaction.message.instructions, ...inner]
    .filter((ix) => TOKEN_PROGRAM_IDS.includes(ix.programId))
    .flatMap((ix) => {
      const transfer = decodeTransfer(ix.parsed);
      return transfer._tag === "Some" && ours.has(transfer.value.info.destination)
        ? [transfer.value.info.authority]
        : [];
    });
};

/**
 * The one wallet that paid: the authority of every token transfer into the recipient's accounts
 * of the mint; undefined when there is none, several, or a multisig (no single authority).
 */
export const soleTransferAuthority = (
  tx: ParsedTransaction,
  terms: { readonly payTo: string; readonly mint: string },
): string | undefined => {
  const authorities = transferAuthorities(tx, terms);
  const first = authorities[0];
  return first !== undefined && authorities.every((authority) => authority === first) ? first : undefined;
};
