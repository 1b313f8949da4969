/**
 * Response bodies as Effect Schemas: /openapi.json is generated from them, and the HTTP tests
 * decode real responses with them, so the document cannot drift from what is served.
 */
import * as Schema from "effect/Schema";
import { CHAIN_NETWORKS } from "../../../core/payments/network.ts";
import { PaymentRequest, X402ErrorBody } from "../../../core/payments/x402.ts";

export const RateLimit = Schema.Struct({
  remaining: Schema.Int.annotate({ description: "queries left (free today + usable paid credits)" }),
  resetAt: Schema.Int.annotate({ description: "epoch ms of the next free-quota reset (00:00 UTC)" }),
  requiresPayment: Schema.Boolean,
  free: Schema.Int.annotate({ description: "free questions left today" }),
  paid: Schema.Int.annotate({ description: "paid questions usable today (free + paid = remaining)" }),
}).annotate({ identifier: "RateLimit" });

export const Source = Schema.Struct({
  number: Schema.Int.annotate({ description: "the n of the [n] citations" }),
  id: Schema.String,
  title: Schema.String,
  url: Schema.String,
  source: Schema.String.annotate({ description: "file the passage comes from" }),
  heading: Schema.String.annotate({ description: "heading path of the passage" }),
  score: Schema.Finite,
  snippet: Schema.String,
}).annotate({ identifier: "Source" });

export const ChatResponse = Schema.Struct({
  success: Schema.Literal(true),
  answerId: Schema.optionalKey(
    Schema.String.annotate({
      description: "id to vote on this answer (POST /api/feedback); absent if none could be issued",
    }),
  ),
  response: Schema.String.annotate({ description: "the answer, citing sources as [n]" }),
  sources: Schema.Array(Source),
  tokensUsed: Schema.Int,
  declined: Schema.Boolean.annotate({
    description: "the docs do not cover the question: the answer says so and no query was charged",
  }),
  rateLimit: RateLimit,
  receipt: Schema.optionalKey(
    Schema.Struct({ format: Schema.Literal("jws"), signature: Schema.String }).annotate({
      identifier: "SignedReceipt",
      description:
        "x402 offer-receipt: the service's signed receipt of the payment this request carried (JWS, EdDSA; kid names the key, docs/x402.md)",
    }),
  ),
}).annotate({ identifier: "ChatResponse" });

const WalletAddress = Schema.String.annotate({
  description: "the wallet whose paid questions this client spends first (base58)",
});

export const StatusResponse = Schema.Struct({
  success: Schema.Literal(true),
  ...RateLimit.fields,
  rateLimit: RateLimit,
  wallet: Schema.optionalKey(WalletAddress),
}).annotate({ identifier: "StatusResponse" });

/** A wallet session's token: handed once to its owner, sent back in X-Wallet-Session. */
export const WalletSession = Schema.Struct({
  token: Schema.String.annotate({ description: "opaque; keep it private, send it as X-Wallet-Session" }),
  expiresAt: Schema.Int.annotate({ description: "epoch ms when the session ends" }),
}).annotate({ identifier: "WalletSession" });

/** The sign-in-with-x extension of a 402, and GET /api/session/challenge. */
export const SignInChallenge = Schema.Struct({
  info: Schema.Struct({
    domain: Schema.String,
    uri: Schema.String,
    version: Schema.String,
    nonce: Schema.String,
    issuedAt: Schema.String,
    expirationTime: Schema.String,
    statement: Schema.String,
    resources: Schema.Array(Schema.String),
  }),
  supportedChains: Schema.Array(
    Schema.Struct({ chainId: Schema.String, type: Schema.String, signatureScheme: Schema.String }),
  ),
}).annotate({ identifier: "SignInChallenge" });

export const SignInChallengeResponse = Schema.Struct({
  success: Schema.Literal(true),
  ...SignInChallenge.fields,
}).annotate({ identifier: "SignInChallengeResponse" });

export const SignedIn = Schema.Struct({
  success: Schema.Literal(true),
  session: WalletSession,
  wallet: WalletAddress,
  rateLimit: RateLimit,
}).annotate({ identifier: "SignedIn" });

export const SignedOut = Schema.Struct({ success: Schema.Literal(true) }).annotate({
  identifier: "SignedOut",
});

export const PaymentInfo = Schema.Struct({
  amount: Schema.Finite,
  token: Schema.Literal("USDC"),
  network: Schema.Literals(CHAIN_NETWORKS),
  recipient: Schema.String,
  usdcMint: Schema.String,
  instructions: Schema.Array(Schema.String),
  pricePerQuery: Schema.String,
  amounts: Schema.Array(Schema.Finite),
  memo: Schema.String.annotate({ description: "put it in the transfer: it binds the payment to you" }),
  memoRequired: Schema.Boolean,
  paymentEndpoint: Schema.String,
}).annotate({ identifier: "PaymentInfo" });

export const PaymentResponse = Schema.Struct({
  success: Schema.Literal(true),
  message: Schema.String,
  signature: Schema.String,
  queriesGranted: Schema.Int,
  rateLimit: RateLimit,
  wallet: Schema.optionalKey(
    Schema.String.annotate({ description: "the wallet that paid: it owns the queries (base58)" }),
  ),
  session: Schema.optionalKey(
    WalletSession.annotate({
      description:
        "when the transfer carries your memo: a session to spend the wallet's queries from any network",
    }),
  ),
}).annotate({ identifier: "PaymentResponse" });

export const ErrorBody = Schema.Struct({
  success: Schema.Literal(false),
  error: Schema.String,
  code: Schema.String,
  details: Schema.optionalKey(Schema.String),
  retryable: Schema.optionalKey(Schema.Boolean),
  requestId: Schema.optionalKey(Schema.String),
  resetAt: Schema.optionalKey(Schema.Int),
  rateLimit: Schema.optionalKey(RateLimit),
  payment: Schema.optionalKey(PaymentInfo),
}).annotate({ identifier: "Error" });

/** /api/chat's 402: a full payment request, the protocol's error object and the chat's own fields. */
export const ChatPaymentRequired = Schema.Struct({
  ...ErrorBody.fields,
  ...PaymentRequest.fields,
  ...X402ErrorBody.fields,
  extensions: Schema.optionalKey(
    Schema.Struct({ "sign-in-with-x": SignInChallenge }).annotate({
      description:
        "a wallet that paid before may sign in instead of paying (SIGN-IN-WITH-X, docs/payments.md)",
    }),
  ),
}).annotate({ identifier: "ChatPaymentRequired" });

/** /api/chat refusing an X-Payment-Authorization: the protocol's error object and the chat's fields. */
export const ChatPaymentRefused = Schema.Struct({ ...ErrorBody.fields, ...X402ErrorBody.fields }).annotate({
  identifier: "ChatPaymentRefused",
});

export const FeedbackKept = Schema.Struct({
  success: Schema.Literal(true),
  answerId: Schema.String,
  vote: Schema.Literals(["up", "down"]),
}).annotate({ identifier: "FeedbackKept" });

export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotate({ identifier: "Health" });

/** The last sync of DOCS_URL as /readyz shows it (null before the first). */
export const DocsSyncSummary = Schema.Struct({
  lastSync: Schema.NullOr(Schema.String.annotate({ description: "when it finished, ISO 8601" })),
  ok: Schema.optional(Schema.Boolean),
  pages: Schema.optional(Schema.Number),
  changed: Schema.optional(Schema.Number),
  removed: Schema.optional(Schema.Number),
  errors: Schema.optional(Schema.Number.annotate({ description: "pages that could not be read this time" })),
  url: Schema.optional(Schema.String.annotate({ description: "only with the metrics token" })),
}).annotate({ identifier: "DocsSyncSummary" });

export const Readiness = Schema.Struct({
  status: Schema.Literals(["ready", "not ready"]),
  /** With METRICS_TOKEN, when DOCS_URL is set; a failed sync is a problem but not unreadiness (the previous index serves). */
  docsSync: Schema.optional(DocsSyncSummary),
  checks: Schema.Record(Schema.String, Schema.Literals(["ok", "unavailable"])),
  /** What is wrong with each unavailable check, e.g. "cannot reach Redis at redis:6379: redis connection refused". */
  problems: Schema.optional(Schema.Record(Schema.String, Schema.String)),
}).annotate({ identifier: "Readiness" });
