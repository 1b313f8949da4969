/**
 * Sign-In With Solana as the x402 `sign-in-with-x` extension uses it (CAIP-122): the challenge
 * a server offers and the proof a wallet sends back. The text a wallet signs (siws-text.ts) is
 * rebuilt from the proof's fields and the signature is checked over it, so a client can never
 * have us accept a message other than the one its fields describe.
 */
import * as Schema from "effect/Schema";

export { type SignInFields, signInMessage } from "./siws-text.ts";

export const SIGN_IN_WITH_X = "sign-in-with-x";
export const SIGN_IN_VERSION = "1";
export const SIGN_IN_TYPE = "ed25519";
export const SIGN_IN_STATEMENT = "Sign in to use the paid questions of this wallet";

const bounded = (max: number) => Schema.String.pipe(Schema.check(Schema.isMaxLength(max)));

/** The proof of the SIGN-IN-WITH-X header (base64 JSON) or of POST /api/session's body. */
export const SignInProof = Schema.Struct({
  domain: bounded(300),
  address: bounded(64),
  statement: Schema.optional(bounded(500)),
  uri: bounded(2000),
  version: bounded(8),
  chainId: bounded(80),
  type: bounded(16),
  nonce: bounded(64),
  issuedAt: bounded(40),
  expirationTime: Schema.optional(bounded(40)),
  notBefore: Schema.optional(bounded(40)),
  requestId: Schema.optional(bounded(200)),
  resources: Schema.optional(Schema.Array(bounded(2000)).pipe(Schema.check(Schema.isMaxLength(10)))),
  signatureScheme: Schema.optional(bounded(16)),
  signature: bounded(120),
});
export type SignInProof = typeof SignInProof.Type;
