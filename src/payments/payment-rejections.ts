/**
 * The one place a payment rejection becomes words: for each reason its stable `code`, HTTP
 * status, whether the same signature may succeed later, the short `error` and the hint that
 * opens `details`. Exhaustive (`satisfies Record<reason, ...>`): a new reason cannot ship
 * without its texts. Both payment dialects render from here.
 */
import { formatUnits } from "../../core/payments/money.ts";
import type { PaymentRejected, PaymentRejectionReason } from "../../core/payments/payment-rejected.ts";
import { DEFAULT_SITE, type PaymentTerms } from "../../core/payments/payment-settings.ts";
import { largestPurchase, smallestPurchase } from "../../core/payments/question-price.ts";

interface Rendering {
  readonly code: string;
  /** 400, or 429 for a budget's refusal (Retry-After: retryAfterOf). */
  readonly status: 400 | 429;
  readonly retryable: boolean;
  readonly error: (facts: PaymentRejected) => string;
  /** What to do about this reason; the checklist of the spec follows it. */
  readonly hint: string;
}

/** Where a site takes POST /api/payment on the service's own host names. */
const sitePaymentPath = (site: string | undefined) =>
  site === undefined || site === DEFAULT_SITE ? "/api/payment" : `/sites/${site}/api/payment`;

const usdc = (units: bigint | undefined) => (units === undefined ? "?" : formatUnits(units));

/** A rejection whose short text is fixed; every payment rejection is a 400. */
const refusal = (code: string, error: string, hint = "", retryable = false): Rendering => ({
  code,
  status: 400,
  retryable,
  error: () => error,
  hint,
});

const AMOUNT_HINT = "Send an amount from 0.01 to 1.00 USDC in steps of 0.001.";
const invalidAmount = (why: string) =>
  refusal("INVALID_AMOUNT", `Invalid payment amount: ${why}`, AMOUNT_HINT);
const wrongToken = (what: string) => refusal("WRONG_TOKEN", `Wrong token: ${what}`);
const wrongRecipient = (what: string) => refusal("WRONG_RECIPIENT", `Wrong recipient: ${what}`);

export const REJECTIONS = {
  "amount-not-decimal": invalidAmount("not a plain decimal number with at most 6 decimal places"),
  "amount-out-of-range": invalidAmount("must be from 0.01 to 1.00 USDC"),
  "amount-not-a-step": invalidAmount("must be a multiple of 0.001 USDC"),
  "signature-malformed": refusal(
    "INVALID_SIGNATURE",
    "Invalid transaction signature format",
    "A signature is the base58 text of 64 bytes (87 or 88 characters), as your wallet shows it.",
  ),
  "token-not-usdc": refusal(
    "INVALID_TOKEN",
    "Unsupported token: only USDC is accepted",
    'Set token to "USDC".',
  ),
  "transaction-not-found": refusal(
    "TRANSACTION_NOT_FOUND",
    "Transaction not found on chain yet",
    "The transaction is not visible at 'confirmed' commitment. If you just sent it, wait a few seconds and retry.",
    true,
  ),
  "transaction-not-confirmed": refusal(
    "TRANSACTION_NOT_CONFIRMED",
    "Transaction not confirmed yet",
    "The transaction is known but not yet confirmed; retry in a few seconds.",
    true,
  ),
  "transaction-failed": refusal(
    "TRANSACTION_FAILED",
    "Transaction failed on chain",
    "The transaction ended with an error, so no tokens moved.",
  ),
  "transaction-too-old": refusal(
    "TRANSACTION_TOO_OLD",
    "Transaction is too old to be claimed",
    "Only transfers from the last 29 days can be claimed.",
  ),
  "transaction-before-ledger-start": refusal(
    "TRANSACTION_TOO_OLD",
    "Transaction predates this service's payment records",
    "This service keeps used signatures in memory only, so it accepts only transfers made since it last started.",
  ),
  "sent-sol": wrongToken("this transaction sent SOL, not USDC"),
  "sent-other-token": wrongToken("the service wallet received another token, not USDC"),
  "mint-not-6-decimals": wrongToken("the configured USDC mint does not have 6 decimals"),
  "balances-inconsistent": wrongRecipient("the token balances of this transaction are inconsistent"),
  "paid-other-owner": wrongRecipient("the USDC went to a token account not owned by the service wallet"),
  "nothing-received": wrongRecipient("no USDC reached the service wallet in this transaction"),
  "amount-insufficient": {
    ...refusal("INSUFFICIENT_AMOUNT", "", "Up to 1% below the claimed amount is tolerated."),
    error: ({ received, claimed }) =>
      `Amount received (${usdc(received)} USDC) is lower than claimed (${usdc(claimed)} USDC)`,
  },
  "memo-mismatch": refusal(
    "MEMO_MISMATCH",
    "Payment memo belongs to another client",
    "The transfer carries a payment reference issued to another client. A reference can only be claimed from the network address that asked for it (GET /api/payment/info); if your address changed, submit from the original one.",
  ),
  "memo-other-site": {
    ...refusal(
      "MEMO_OTHER_SITE",
      "",
      "The memo is a payment reference of another docs site on this service: submit the signature to that site's payment endpoint, where its questions are credited.",
    ),
    error: ({ site }) =>
      `Payment memo belongs to another site of this service (${site ?? "?"}): submit it at ${sitePaymentPath(site)}`,
  },
  "memo-required": refusal(
    "MEMO_REQUIRED",
    "Payment memo required",
    "This service requires the memo reference from GET /api/payment/info in the transfer.",
  ),
  "memo-reserved": refusal(
    "MEMO_RESERVED",
    "This transfer pays an HTTP 402 payment request",
    "Its memo names an x402 payment_id: present it with X-Payment-Authorization on the request it paid for. It cannot buy queries here.",
  ),
  "signature-already-used": refusal(
    "SIGNATURE_ALREADY_USED",
    "Transaction signature already used",
    "Each transfer buys queries once. If you submitted it before, its queries were granted then (see GET /api/status); a lost reply does not lose them. To buy more, send a new transfer.",
  ),
  "chain-lookups-limited": {
    ...refusal(
      "TOO_MANY_UNKNOWN_TRANSACTIONS",
      "Too many payment submissions for transactions that are not on chain",
      "Submit the signature of a transfer you sent, after the wait Retry-After names; a transfer that is still confirming is found within a minute. (Each client, and everyone together, may have only so many signatures looked up on chain a minute.)",
      true,
    ),
    status: 429,
  },
  "authorization-malformed": refusal(
    "INVALID_PAYMENT_AUTHORIZATION",
    "Invalid X-Payment-Authorization header",
    "The header is the base64 of the authorization JSON: its nine snake_case fields, addresses and signatures in base58.",
  ),
  "authorization-signature-invalid": refusal(
    "AUTHORIZATION_SIGNATURE_INVALID",
    "The authorization's signature does not verify",
    "Sign the authorization message (docs/x402.md) with the ed25519 key of public_key and send the signature in base58.",
  ),
  "authorization-mismatch": refusal(
    "AUTHORIZATION_MISMATCH",
    "The authorization does not match the payment request",
    "payment_address, asset_address and network must be those of the payment request, and actual_amount at least its max_amount_required.",
  ),
  "transfer-authority-mismatch": refusal(
    "TRANSFER_AUTHORITY_MISMATCH",
    "The transfer was not made by the authorization's public_key",
    "Pay from a token account whose owner is the key that signs the authorization: it must be the transfer's authority.",
  ),
  "payment-unknown": refusal(
    "PAYMENT_UNKNOWN",
    "Unknown payment_id",
    "Pay a payment request this service issued in a 402 response in the last few minutes; request the resource without the header for a new one.",
  ),
  "payment-expired": refusal(
    "PAYMENT_EXPIRED",
    "Payment request expired",
    "The transfer was made after the payment request's expires_at. Pay a new payment request.",
  ),
  "payment-late-listed": {
    code: "PAYMENT_LATE_LISTED",
    status: 400,
    retryable: false,
    error: ({ payment, received }) =>
      `Transfer ${payment?.transaction ?? "?"} (${usdc(received)} USDC) for payment ${payment?.id ?? "?"} landed after the payment request expired: not served, listed for a refund by the owner`,
    hint: "This route does not serve late transfers; the owner refunds them by hand. Pay a new payment request, with time to spare before its expires_at.",
  },
  "payment-other-resource": refusal(
    "PAYMENT_OTHER_RESOURCE",
    "This payment is for another resource",
    "A payment_id pays only the resource and method it was issued for.",
  ),
  "payment-already-used": refusal(
    "PAYMENT_ALREADY_USED",
    "This payment was already used",
    "Each payment request pays for one response. Request the resource without the header for a new payment request.",
  ),
  "payment-lookups-exhausted": refusal(
    "PAYMENT_LOOKUPS_EXHAUSTED",
    "This payment request was already tried with too many transactions",
    "A payment_id is checked against at most three different transactions. Request the resource without the header for a new payment request, and pay it with one transfer.",
  ),
  "exact-payload-malformed": refusal(
    "INVALID_PAYMENT_SIGNATURE",
    "Invalid PAYMENT-SIGNATURE header",
    "The header is the base64 of an x402 v2 payment payload (scheme exact) whose payload.transaction is a base64 Solana transaction.",
  ),
  "exact-instruction-forbidden": refusal(
    "EXACT_INSTRUCTION_FORBIDDEN",
    "The transaction holds an instruction the exact scheme does not allow",
    "Allowed, at most seven in all: one SetComputeUnitLimit, at most one SetComputeUnitPrice, one TransferChecked of the asset, the memo, and up to four memo or Lighthouse instructions together. Nothing else, and one transfer only.",
  ),
  "exact-transfer-mismatch": refusal(
    "EXACT_TRANSFER_MISMATCH",
    "The transfer does not match the payment requirements",
    "Transfer exactly `amount` base units of `asset` from your own associated token account to that of `payTo`, with the asset's decimals.",
  ),
  "exact-fee-payer-misused": refusal(
    "EXACT_FEE_PAYER_MISUSED",
    "The fee payer is misused",
    "The fee payer must be extra.feePayer, and may appear in no instruction: never the transfer's source or authority.",
  ),
  "exact-compute-price-too-high": refusal(
    "EXACT_COMPUTE_PRICE_TOO_HIGH",
    "The transaction would cost the fee payer more than the service sponsors",
    "The fee payer pays 5,000 lamports for each of the two signatures plus the priority fee (compute-unit limit x price / 1,000,000), at most X402_MAX_SPONSOR_FEE_LAMPORTS (15,000 by default) in all, and a price of at most 5,000,000 micro-lamports. The official client's 20,000 units at 1 micro-lamport fit.",
  ),
  "exact-compute-budget-invalid": refusal(
    "EXACT_COMPUTE_BUDGET_INVALID",
    "The compute budget is not the one the exact scheme allows",
    "Set exactly one SetComputeUnitLimit and at most one SetComputeUnitPrice, and no other compute-budget instruction: without a limit the runtime's default would make the fee payer pay for 200,000 units per instruction.",
  ),
  "exact-signers-invalid": refusal(
    "EXACT_SIGNERS_INVALID",
    "The transaction needs a signer the exact scheme does not",
    "Exactly two signatures: the fee payer's (extra.feePayer) and the transfer's authority. Each further signer would be paid for by the fee payer.",
  ),
  "exact-account-unreferenced": refusal(
    "EXACT_ACCOUNT_UNREFERENCED",
    "The transaction lists an account no instruction uses",
    "Build the transaction from its instructions only: every account in it must be used by one of them.",
  ),
  "exact-smart-wallet-unsupported": refusal(
    "EXACT_SMART_WALLET_UNSUPPORTED",
    "Payments from a smart wallet are not accepted",
    "The transfer must be a top-level TransferChecked signed by the paying wallet; a transfer inside a Squads, Swig, SPL Governance or Metaplex Core instruction is not verified here. Pay from a standard wallet.",
  ),
  "exact-assertion-forbidden": refusal(
    "EXACT_ASSERTION_FORBIDDEN",
    "A Lighthouse assertion checks something other than the payer's own accounts",
    "Wallet assertions may name only the paying wallet and the token account it pays from; an assertion on a clock or on another account could fail after our simulation, at the fee payer's expense.",
  ),
  "exact-payer-busy": refusal(
    "EXACT_PAYER_BUSY",
    "Another payment from this wallet is being settled",
    "One payment per wallet and token account is settled at a time, and a wallet whose payment just failed on chain waits a few seconds. Send the same payment again in a few seconds.",
    true,
  ),
  "exact-sponsor-unavailable": refusal(
    "EXACT_SPONSOR_UNAVAILABLE",
    "x402 v2 is not offered at the moment",
    "The service's fee payer is low on SOL, so nothing was signed or sent. Pay with the X-Payment-Authorization header (the payment request in the 402 body) instead.",
  ),
  "exact-blockhash-expired": refusal(
    "EXACT_BLOCKHASH_EXPIRED",
    "The transaction's blockhash is not recent",
    "Build the transaction again with a fresh blockhash and send it at once.",
  ),
  "exact-signature-invalid": refusal(
    "EXACT_SIGNATURE_INVALID",
    "A client signature of the transaction is missing or invalid",
    "Sign the transaction with every key it names as a signer but the fee payer.",
  ),
  "exact-simulation-failed": refusal(
    "EXACT_SIMULATION_FAILED",
    "The transaction fails in simulation",
    "Check the token balance of the paying account and that the recipient's associated token account exists.",
  ),
  "exact-settlement-failed": refusal(
    "EXACT_SETTLEMENT_FAILED",
    "The payment could not be settled on chain",
    "Nothing was served. Send the same payment again (it may still land, and is then credited once); ask for a new payment request only once its blockhash has expired.",
    true,
  ),
  "exact-payment-in-progress": refusal(
    "EXACT_PAYMENT_IN_PROGRESS",
    "This payment is being settled",
    "Send the same payment again in a few seconds (at most two minutes); do not sign a new one for this payment request.",
    true,
  ),
  "exact-settlement-pending": refusal(
    "EXACT_SETTLEMENT_PENDING",
    "The payment was sent and is not confirmed yet",
    "Nothing is lost: if it lands it is credited to the paying wallet (or the same payment is served) without paying again; if it never lands nothing was taken. Send the same payment again in a minute; do not sign a new one.",
    true,
  ),
  "exact-payer-cooled-down": refusal(
    "EXACT_PAYER_COOLED_DOWN",
    "This wallet's x402 v2 payments are not sponsored for a while",
    "A transaction of this wallet that passed simulation failed on chain at the sponsor's expense (its balance or its own assertion changed before it landed). Pay with the X-Payment-Authorization header (the payment request in the 402 body) meanwhile, or wait (Retry-After).",
    true,
  ),
  "exact-handler-deadline": refusal(
    "EXACT_HANDLER_DEADLINE",
    "The paid content took too long to produce",
    "Nothing was sent and nothing charged. Send the same payment again.",
    true,
  ),
} as const satisfies Record<PaymentRejectionReason, Rendering>;

/** The Retry-After of a retryable rejection: a budget's own wait in whole seconds, else 5 s. */
export const retryAfterOf = (rejection: PaymentRejected): string =>
  rejection.retryAfterMs === undefined ? "5" : String(Math.max(1, Math.ceil(rejection.retryAfterMs / 1000)));

/** The amounts accepted at a price: "0.01 to 1.00 USDC" and the step "0.001" at the default. */
const amountRange = (unitsPerQuery: bigint) => ({
  range: `${formatUnits(smallestPurchase(unitsPerQuery))} to ${formatUnits(largestPurchase(unitsPerQuery))} USDC`,
  step: formatUnits(unitsPerQuery),
});

/**
 * An amount reason's texts at the price of a question (the table holds the default price's);
 * undefined for the other reasons.
 */
const amountTexts = (reason: PaymentRejectionReason, unitsPerQuery: bigint) => {
  const { range, step } = amountRange(unitsPerQuery);
  const hint = `Send an amount from ${range} in steps of ${step}.`;
  if (reason === "amount-out-of-range")
    return { error: `Invalid payment amount: must be from ${range}`, hint };
  if (reason === "amount-not-a-step")
    return { error: `Invalid payment amount: must be a multiple of ${step} USDC`, hint };
  if (reason === "amount-not-decimal") return { error: undefined, hint };
  return undefined;
};

/** The spec's list of things to check, with this service's mint, wallet, price and network. */
const checklist = (terms: PaymentTerms): string => {
  const { range, step } = amountRange(terms.unitsPerQuery);
  return (
    `Check that: (1) you sent USDC (mint ${terms.usdcMint}), not SOL or another token; ` +
    `(2) the amount sent is at least the amount you claim (${range}, in steps of ${step}); ` +
    `(3) the recipient is the service wallet ${terms.wallet}; ` +
    `(4) the transaction is confirmed on ${terms.network} (this can take 30-60 seconds; retry then).`
  );
};

/** The rejection as the spec's payment error body plus our `code` and `retryable`. */
export const renderRejection = (rejection: PaymentRejected, terms: PaymentTerms) => {
  const rendering: Rendering = REJECTIONS[rejection.reason];
  const atPrice = amountTexts(rejection.reason, terms.unitsPerQuery);
  const hint = atPrice?.hint ?? rendering.hint;
  const details = hint === "" ? checklist(terms) : `${hint} ${checklist(terms)}`;
  return {
    status: rendering.status,
    retryable: rendering.retryable,
    body: {
      success: false as const,
      error: atPrice?.error ?? rendering.error(rejection),
      details,
      code: rendering.code,
      retryable: rendering.retryable,
    },
  };
};
