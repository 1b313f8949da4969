/**
 * Data types of the HTTP 402 protocol (the project's x402 protocol reference, ../shared/spec/x402-protocol.md): the payment request (402 body),
 * the payment authorization (X-Payment-Authorization header, base64 of JSON) and the error
 * object with its six codes.
 */
import * as Base64 from "effect/encoding/Base64";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { decodeBase58, isBase58Address } from "../base58.ts";
import { parseDecimalUnits } from "./money.ts";

const DecimalText = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{1,15}(\.\d{1,18})?$/)));
const IsoTime = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/)),
);
const Base58Address = Schema.String.pipe(
  Schema.check(Schema.makeFilter((text: string) => isBase58Address(text) || "a base58 address of 32 bytes")),
);
/** base58 text of exactly 64 bytes: a transaction signature, or an ed25519 signature. */
const Base58Signature = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(
      (text: string) =>
        (text.length >= 64 && text.length <= 88 && decodeBase58(text)?.length === 64) ||
        "the base58 text of 64 bytes",
    ),
  ),
);
/** The protocol's network names (core/payments/network.ts). */
export const Network = Schema.Literals(["chain-devnet", "chain-testnet", "chain-mainnet"]);
const Id = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9_-]{8,128}$/)));

export const PaymentRequest = Schema.Struct({
  max_amount_required: DecimalText,
  asset_type: Schema.Literal("SPL"),
  asset_address: Base58Address,
  payment_address: Base58Address,
  network: Network,
  expires_at: IsoTime,
  nonce: Id,
  payment_id: Id,
  resource: Schema.String,
  description: Schema.String,
});
export type PaymentRequest = typeof PaymentRequest.Type;

export const PaymentAuthorization = Schema.Struct({
  payment_id: Id,
  actual_amount: DecimalText,
  payment_address: Base58Address,
  asset_address: Base58Address,
  network: Network,
  timestamp: IsoTime,
  /** ed25519 signature by `public_key` over `authorizationMessage(...)`, base58. */
  signature: Base58Signature,
  public_key: Base58Address,
  transaction_hash: Base58Signature,
});
export type PaymentAuthorization = typeof PaymentAuthorization.Type;

/** Whether a payment request has expired at `now` (epoch ms). */
/**
 * Whether a request has expired at `now`, or will within `marginMs` (a payer keeps a margin, so
 * its transfer lands before the deadline or within the service's late-transfer grace).
 */
export const isExpired = (request: Pick<PaymentRequest, "expires_at">, now: number, marginMs = 0): boolean =>
  // Written so an unparseable date (NaN, e.g. month 13 passes the pattern) counts as expired.
  !(Date.parse(request.expires_at) > now + marginMs);

/** The time a client must have left on a request to start paying it. */
export const PAY_MARGIN_MS = 30_000;

/** The request's amount in base units (the schema guarantees the text is a decimal). */
export const requiredUnits = (request: PaymentRequest) => parseDecimalUnits(request.max_amount_required);

const PaymentRequestJson = Schema.fromJsonString(PaymentRequest);
const AuthorizationJson = Schema.fromJsonString(PaymentAuthorization);

/** Payment request <-> JSON text. */
export const paymentRequestToJson = Schema.encodeSync(PaymentRequestJson);
export const paymentRequestFromJson = Schema.decodeUnknownResult(PaymentRequestJson);

/** Authorization -> header value (base64 of the JSON). */
export const encodeAuthorizationHeader = (authorization: PaymentAuthorization): string =>
  Base64.encode(Schema.encodeSync(AuthorizationJson)(authorization));

/** Header value -> authorization; a string failure says what is wrong, never echoes the input. */
export const decodeAuthorizationHeader = (header: string): Result.Result<PaymentAuthorization, string> => {
  if (header.length > 4096) return Result.fail("header too long");
  const text = Base64.decodeString(header.trim());
  if (Result.isFailure(text)) return Result.fail("not valid base64");
  return Result.mapError(
    Schema.decodeUnknownResult(AuthorizationJson)(text.success),
    (issue) => `invalid authorization: ${issue.message}`,
  );
};

/**
 * The exact text the payer signs (ed25519, with the key of `public_key`): a fixed first line,
 * then every authorization field but `signature`, one `name=value` per line in the spec's
 * order, joined by "\n", no trailing newline, encoded as UTF-8. The schema keeps every value
 * free of line breaks and "=", so the text has one reading only.
 */
export const authorizationMessage = (authorization: Omit<PaymentAuthorization, "signature">): string =>
  [
    AUTHORIZATION_MESSAGE_HEADER,
    `payment_id=${authorization.payment_id}`,
    `actual_amount=${authorization.actual_amount}`,
    `payment_address=${authorization.payment_address}`,
    `asset_address=${authorization.asset_address}`,
    `network=${authorization.network}`,
    `timestamp=${authorization.timestamp}`,
    `public_key=${authorization.public_key}`,
    `transaction_hash=${authorization.transaction_hash}`,
  ].join("\n");
export const AUTHORIZATION_MESSAGE_HEADER = "x402 payment authorization v1";

/** The memo a transfer carries to pay a payment request: `x402:<payment_id>`. */
export const X402_MEMO_PREFIX = "x402:";
export const paymentMemo = (paymentId: string): string => `${X402_MEMO_PREFIX}${paymentId}`;

export const X402_CODES = {
  PAYMENT_REQUIRED: 402,
  PAYMENT_EXPIRED: 402,
  INSUFFICIENT_FUNDS: 400,
  PAYMENT_VERIFICATION_FAILED: 403,
  TRANSACTION_BROADCAST_FAILED: 500,
  INVALID_PAYMENT_REQUEST: 400,
} as const;
export type X402Code = keyof typeof X402_CODES;

/** The protocol's error object. */
export const X402ErrorBody = Schema.Struct({
  Message: Schema.String,
  Code: Schema.Literals(Object.keys(X402_CODES) as [X402Code, ...X402Code[]]),
  Details: Schema.Record(Schema.String, Schema.Unknown),
});
export type X402ErrorBody = typeof X402ErrorBody.Type;

export const x402Error = (code: X402Code, message: string, details: Record<string, unknown> = {}) => ({
  status: X402_CODES[code],
  body: { Message: message, Code: code, Details: details } satisfies X402ErrorBody,
});
