/**
 * Request bodies as Effect Schemas: the routes decode with them and /openapi.json is generated
 * from them, so the docs cannot drift from what is accepted. Each field names its own problem
 * (`message`), so a client reads "amount must be a number", not a type dump. A field sent as
 * null counts as absent (read-json.ts drops null fields before decoding).
 */
import * as Schema from "effect/Schema";
import { SignInProof } from "../../../core/sign-in/sign-in-message.ts";
import { MAX_MESSAGE_LENGTH } from "../../../core/use-cases/prepare-answer.ts";

const typed = <S extends Schema.Top>(field: string, schema: S, type: string) =>
  schema.annotate({ message: `${field} must be a ${type}` });

export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A BCP 47 language tag, loosely: a language and a few subtags. */
export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,4}$/;

export const ChatRequest = Schema.Struct({
  message: Schema.optionalKey(
    typed("message", Schema.String, "string").annotate({
      description: `the question; non-empty after trimming, at most ${MAX_MESSAGE_LENGTH} characters`,
    }),
  ),
  conversationId: Schema.optionalKey(
    typed("conversationId", Schema.String, "string").check(
      Schema.isPattern(CONVERSATION_ID_PATTERN, {
        message: "conversationId must be 1-128 characters of letters, digits, '_', '-', '.', ':'",
      }),
    ),
  ),
  stream: Schema.optionalKey(
    typed("stream", Schema.Boolean, "boolean").annotate({
      description: "answer as Server-Sent Events (also: Accept: text/event-stream)",
    }),
  ),
  locale: Schema.optionalKey(
    typed("locale", Schema.String, "string")
      .check(
        Schema.isPattern(LOCALE_PATTERN, {
          message: "locale must be a language tag such as en or de-CH",
        }),
      )
      .annotate({
        description:
          "the visitor's language tag (the widget sends the browser's; default: Accept-Language): a question asked in another language than the docs' is told so in it",
      }),
  ),
}).annotate({ identifier: "ChatRequest" });
export type ChatRequest = typeof ChatRequest.Type;

export const PaymentRequest = Schema.Struct({
  signature: typed("signature", Schema.String, "string")
    .annotate({ description: "base58 transaction signature (64 bytes)" })
    .pipe(Schema.annotateKey({ messageMissingKey: "signature is required" })),
  amount: typed("amount", Schema.Number, "number")
    .check(Schema.isFinite({ message: "amount must be a finite number" }))
    .annotate({
      description: "USDC sent: 0.01 to 1.00 in steps of 0.001",
      examples: [0.01, 0.05, 0.1, 0.5, 1],
    })
    .pipe(Schema.annotateKey({ messageMissingKey: "amount is required" })),
  token: typed("token", Schema.String, "string")
    .annotate({ description: 'always "USDC"' })
    .pipe(Schema.annotateKey({ messageMissingKey: "token is required" })),
}).annotate({ identifier: "PaymentRequest" });
export type PaymentRequest = typeof PaymentRequest.Type;

export const SignInRequest = Schema.Struct({
  proof: SignInProof.annotate({
    description:
      "the Sign-In With Solana proof: the challenge's fields, the wallet's address and its base58 signature",
  }).pipe(Schema.annotateKey({ messageMissingKey: "proof is required" })),
  signOutOthers: Schema.optionalKey(
    typed("signOutOthers", Schema.Boolean, "boolean").annotate({
      description: "revoke every earlier session of the wallet (a token that was stolen stops working)",
    }),
  ),
}).annotate({ identifier: "SignInRequest" });
export type SignInRequest = typeof SignInRequest.Type;
