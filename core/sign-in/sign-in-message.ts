/**
 * Sign-In With Solana as the x402 `sign-in-with-x` extension uses it (CAIP-122): the challenge
 * a server offers, the proof a wallet sends back, and the exact text the wallet signs. The text
 * is rebuilt here from the proof's fields and the signature is checked over it, so a client can
 * never have us accept a message other than the one its fields describe.
 */
import { Schema } from "effect";

export const SIGN_IN_WITH_X = "sign-in-with-x";
export const SIGN_IN_VERSION = "1";
export const SIGN_IN_TYPE = "ed25519";
export const SIGN_IN_STATEMENT = "Sign in to use the paid questions of this wallet";

/** What the server declares (`extensions["sign-in-with-x"].info`) plus the chain the wallet signs for. */
export interface SignInFields {
  readonly domain: string;
  readonly uri: string;
  readonly statement?: string | undefined;
  readonly version: string;
  readonly chainId: string;
  readonly nonce: string;
  readonly issuedAt: string;
  readonly expirationTime?: string | undefined;
  readonly notBefore?: string | undefined;
  readonly requestId?: string | undefined;
  readonly resources?: ReadonlyArray<string> | undefined;
}

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

/** The chain reference of a CAIP-2 id (`solana:<reference>`), as the SIWS text names it. */
const chainReference = (chainId: string): string => chainId.slice(chainId.indexOf(":") + 1);

/** The exact SIWS text `address` signs for these fields (the format of the sign-in-with-x spec). */
export const signInMessage = (fields: SignInFields, address: string): string => {
  const lines = [`${fields.domain} wants you to sign in with your Solana account:`, address, ""];
  if (fields.statement) lines.push(fields.statement, "");
  lines.push(
    `URI: ${fields.uri}`,
    `Version: ${fields.version}`,
    `Chain ID: ${chainReference(fields.chainId)}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
  );
  if (fields.expirationTime) lines.push(`Expiration Time: ${fields.expirationTime}`);
  if (fields.notBefore) lines.push(`Not Before: ${fields.notBefore}`);
  if (fields.requestId) lines.push(`Request ID: ${fields.requestId}`);
  if (fields.resources && fields.resources.length > 0) {
    lines.push("Resources:");
    for (const resource of fields.resources) lines.push(`- ${resource}`);
  }
  return lines.join("\n");
};
