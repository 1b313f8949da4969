/**
 * Every way a payment can be refused, one tagged error each. Each carries the spec's
 * `error` (short) and `details` (what to check) texts and a stable `code` for programs.
 * `retryable` says whether the same signature may succeed later (not confirmed yet).
 */
import { Schema } from "effect";

const fields = {
  error: Schema.String,
  details: Schema.String,
};

const checklist = (context: PaymentContext): string =>
  `Check that: (1) you sent USDC (mint ${context.usdcMint}), not SOL or another token; ` +
  `(2) the amount sent is at least the amount you claim (0.01 to 1.00 USDC, in steps of 0.001); ` +
  `(3) the recipient is the service wallet ${context.wallet}; ` +
  `(4) the transaction is confirmed on ${context.network} (this can take 30-60 seconds; retry then).`;

/** The values the texts mention; from config, never secret. */
export interface PaymentContext {
  readonly usdcMint: string;
  readonly wallet: string;
  readonly network: string;
}

export class InvalidAmount extends Schema.TaggedError<InvalidAmount>()("InvalidAmount", fields) {}
export class InvalidSignature extends Schema.TaggedError<InvalidSignature>()("InvalidSignature", fields) {}
export class InvalidToken extends Schema.TaggedError<InvalidToken>()("InvalidToken", fields) {}
export class TransactionNotFound extends Schema.TaggedError<TransactionNotFound>()(
  "TransactionNotFound",
  fields,
) {}
export class TransactionNotConfirmed extends Schema.TaggedError<TransactionNotConfirmed>()(
  "TransactionNotConfirmed",
  fields,
) {}
export class TransactionFailed extends Schema.TaggedError<TransactionFailed>()("TransactionFailed", fields) {}
export class TransactionTooOld extends Schema.TaggedError<TransactionTooOld>()("TransactionTooOld", fields) {}
export class WrongToken extends Schema.TaggedError<WrongToken>()("WrongToken", fields) {}
export class WrongRecipient extends Schema.TaggedError<WrongRecipient>()("WrongRecipient", fields) {}
export class InsufficientAmount extends Schema.TaggedError<InsufficientAmount>()(
  "InsufficientAmount",
  fields,
) {}
export class SignatureAlreadyUsed extends Schema.TaggedError<SignatureAlreadyUsed>()(
  "SignatureAlreadyUsed",
  fields,
) {}
export class MemoMismatch extends Schema.TaggedError<MemoMismatch>()("MemoMismatch", fields) {}
export class MemoRequired extends Schema.TaggedError<MemoRequired>()("MemoRequired", fields) {}

/** Claim-shape errors (before touching the chain). */
export type ClaimError = InvalidAmount | InvalidSignature | InvalidToken;
/** Errors of the on-chain checks. */
export type TransferError =
  | TransactionNotFound
  | TransactionNotConfirmed
  | TransactionFailed
  | TransactionTooOld
  | WrongToken
  | WrongRecipient
  | InsufficientAmount
  | MemoMismatch
  | MemoRequired;
export type PaymentError = ClaimError | TransferError | SignatureAlreadyUsed;

/** Builders that fill in the texts, so every rejection explains itself the same way. */
export const paymentErrors = (context: PaymentContext) => {
  const details = checklist(context);
  return {
    invalidAmount: (why: string) =>
      new InvalidAmount({
        error: `Invalid payment amount: ${why}`,
        details: `Send an amount from 0.01 to 1.00 USDC in steps of 0.001. ${details}`,
      }),
    invalidSignature: () =>
      new InvalidSignature({
        error: "Invalid transaction signature format",
        details: `A signature is the base58 text of 64 bytes (87 or 88 characters), as your wallet shows it. ${details}`,
      }),
    invalidToken: () =>
      new InvalidToken({
        error: "Unsupported token: only USDC is accepted",
        details: `Set token to "USDC". ${details}`,
      }),
    notFound: () =>
      new TransactionNotFound({
        error: "Transaction not found on chain yet",
        details: `The transaction is not visible at 'confirmed' commitment. If you just sent it, wait a few seconds and retry. ${details}`,
      }),
    notConfirmed: () =>
      new TransactionNotConfirmed({
        error: "Transaction not confirmed yet",
        details: `The transaction is known but not yet confirmed; retry in a few seconds. ${details}`,
      }),
    failed: () =>
      new TransactionFailed({
        error: "Transaction failed on chain",
        details: `The transaction ended with an error, so no tokens moved. ${details}`,
      }),
    tooOld: () =>
      new TransactionTooOld({
        error: "Transaction is too old to be claimed",
        details: `Only transfers from the last 29 days can be claimed. ${details}`,
      }),
    beforeLedgerStart: () =>
      new TransactionTooOld({
        error: "Transaction predates this service's payment records",
        details: `This service keeps used signatures in memory only, so it accepts only transfers made since it last started. ${details}`,
      }),
    wrongToken: (what: string) => new WrongToken({ error: `Wrong token: ${what}`, details }),
    wrongRecipient: (what: string) => new WrongRecipient({ error: `Wrong recipient: ${what}`, details }),
    insufficient: (received: string, claimed: string) =>
      new InsufficientAmount({
        error: `Amount received (${received} USDC) is lower than claimed (${claimed} USDC)`,
        details: `Up to 1% below the claimed amount is tolerated. ${details}`,
      }),
    alreadyUsed: () =>
      new SignatureAlreadyUsed({
        error: "Transaction signature already used",
        details: `Each transfer buys queries once. If you submitted it before, its queries were granted then (see GET /api/status); a lost reply does not lose them. To buy more, send a new transfer. ${details}`,
      }),
    memoMismatch: () =>
      new MemoMismatch({
        error: "Payment memo belongs to another client",
        details: `The transfer carries a payment reference issued to another client. A reference can only be claimed from the network address that asked for it (GET /api/payment/info); if your address changed, submit from the original one. ${details}`,
      }),
    memoRequired: () =>
      new MemoRequired({
        error: "Payment memo required",
        details: `This service requires the memo reference from GET /api/payment/info in the transfer. ${details}`,
      }),
  };
};
export type PaymentErrors = ReturnType<typeof paymentErrors>;

/** Whether the client may retry the same signature later. */
export const isRetryable = (error: PaymentError): boolean =>
  error._tag === "TransactionNotFound" || error._tag === "TransactionNotConfirmed";
