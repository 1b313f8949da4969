/**
 * Verifying offers and receipts the way an agent does, with @x402/extensions: the key is the
 * one the JWS `kid` names. Bun (and Deno) load jose's browser build, which cannot import the
 * alg-less JWK the extension derives from a did:key, so under Bun the key is derived here from
 * the did:key itself (multicodec 0xed01 + 32 bytes, base58btc) and handed to the extension's
 * verify functions; `verifyUnderNode` lets the extension resolve the kid itself, under Node.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { base58 } from "@scure/base";
import {
  extractJWSHeader,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";

/** The Ed25519 public key a did:key kid names, as a JWK. */
export const jwkOfDidKey = (kid: string) => {
  const identifier = kid.split("#")[0]?.replace(/^did:key:z/, "") ?? "";
  const bytes = base58.decode(identifier);
  if (bytes[0] !== 0xed || bytes[1] !== 0x01 || bytes.length !== 34)
    throw new Error(`not an Ed25519 did:key: ${kid}`);
  return { kty: "OKP", crv: "Ed25519", x: Buffer.from(bytes.slice(2)).toString("base64url"), alg: "EdDSA" };
};

const keyOf = (jws: string) => jwkOfDidKey(String(extractJWSHeader(jws).kid));

export const verifyOffer = (offer: JWSSignedOffer) => verifyOfferSignatureJWS(offer, keyOf(offer.signature));
export const verifyReceipt = (receipt: JWSSignedReceipt) =>
  verifyReceiptSignatureJWS(receipt, keyOf(receipt.signature));

/** The receipt's payload as @x402/extensions verifies it under Node, resolving the kid itself. */
export const verifyUnderNode = (receipt: JWSSignedReceipt): unknown => {
  const run = spawnSync("node", [join(import.meta.dir, "verify-receipt.mjs"), receipt.signature], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`node verification failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
};
