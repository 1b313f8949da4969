/** One clear sentence per refusal of the spec's error table (codes from POST /api/payment). */
import type { ServiceError } from "./chat-api.ts";

const MESSAGES: Readonly<Record<string, string>> = {
  INVALID_AMOUNT: "That amount cannot be bought: choose 0.01 to 1.00 USDC.",
  INVALID_SIGNATURE:
    "That is not a transaction signature. It is 87 or 88 letters and digits, as your wallet or explorer shows it.",
  INVALID_TOKEN: "Only USDC is accepted.",
  TRANSACTION_NOT_FOUND:
    "The transfer is not on chain yet. If you just sent it, wait a little: it stays claimable, paste its signature again later.",
  TRANSACTION_NOT_CONFIRMED:
    "The transfer is not confirmed yet. It stays claimable: paste its signature again in a minute.",
  TRANSACTION_FAILED: "This transaction failed on chain, so nothing was paid. Try again.",
  TRANSACTION_TOO_OLD: "This transfer is too old to be claimed here (or older than this service's records).",
  WRONG_TOKEN: "You sent SOL or another token, not USDC. Only USDC transfers buy questions.",
  WRONG_RECIPIENT: "This transfer did not go to the service's wallet, so it cannot buy questions here.",
  INSUFFICIENT_AMOUNT:
    "The transfer is smaller than the amount chosen. Choose the amount you actually sent and submit again.",
  SIGNATURE_ALREADY_USED:
    "This signature was already used: its questions were credited then. A new transfer buys more.",
  MEMO_MISMATCH:
    "This transfer carries another visitor's payment reference, so it can only be claimed from their connection.",
  MEMO_OTHER_SITE:
    "This transfer pays another docs site of this service (its memo says so): it is credited there, not here.",
  MEMO_RESERVED:
    "This transfer pays an HTTP 402 payment request (its memo says so), so it cannot buy questions here.",
  MEMO_REQUIRED:
    "This service needs its payment reference in the transfer: pay with the wallet button or the QR code.",
  CHAIN_UNAVAILABLE:
    "The blockchain cannot be reached right now. Your transfer is safe: try again in a minute.",
  STORE_UNAVAILABLE: "The service is briefly unavailable. Your transfer is safe: try again in a minute.",
  TOO_MANY_UNKNOWN_TRANSACTIONS:
    "Too many signatures that are not on chain were checked in the last minute. Your transfer is safe: paste its signature again in a minute.",
  RATE_LIMITED: "Too many attempts at once. Wait a second and try again.",
  NETWORK: "The service cannot be reached. Check your connection; your transfer is safe.",
};

/** What to tell the visitor about a failed claim. */
export const paymentMessage = (error: ServiceError): string => MESSAGES[error.code] ?? error.error;
