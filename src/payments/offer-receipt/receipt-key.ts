/**
 * The service's Ed25519 key for signed offers and receipts (x402 offer-receipt), from its
 * 32-byte seed (X402_RECEIPT_SIGNING_KEY; `npm start` generates one in .data/). node:crypto
 * signs synchronously on Bun and Deno, so a 402 is signed where it is built, with no await.
 * The key is named by a DID URL, the JWS `kid` a verifier resolves: `did:key` (self-certifying:
 * the public key is in the name), or with PUBLIC_ORIGIN `did:web` of that origin, whose
 * document (/.well-known/did.json) lists the key: that ties the key to the domain a
 * `resourceUrl` names (the spec's signer authorization, §4.5.1).
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign } from "node:crypto";
import { encodeBase58 } from "../../../core/base58.ts";

/** An Ed25519 private key in PKCS#8 DER is this prefix and the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
/** The multicodec of an Ed25519 public key (0xed, as an unsigned varint). */
const ED25519_PUB_MULTICODEC = Uint8Array.from([0xed, 0x01]);
export const SEED_BYTES = 32;

/** With `alg`: jose's browser build (what Bun and Deno load) refuses to import a JWK without one. */
export interface PublicJwk {
  readonly kty: "OKP";
  readonly crv: "Ed25519";
  readonly x: string;
  readonly alg: "EdDSA";
}

export interface ReceiptKey {
  /** The DID URL of the key (the JWS header's `kid`). */
  readonly kid: string;
  readonly publicJwk: PublicJwk;
  /** The did:web document that lists the key; undefined with did:key (nothing to serve). */
  readonly didDocument: Readonly<Record<string, unknown>> | undefined;
  /** The Ed25519 signature of `bytes`. */
  readonly sign: (bytes: Uint8Array) => Uint8Array;
}

/** `did:web` of an origin: its host, a port percent-encoded (did:web method spec). */
export const didWebOf = (origin: string): string => {
  const url = new URL(origin);
  return `did:web:${url.hostname}${url.port === "" ? "" : `%3A${url.port}`}`;
};

/** The multibase (base58btc, `z`) of an Ed25519 public key with its multicodec: a did:key's identifier. */
const multibaseOf = (publicKey: Uint8Array): string => {
  const bytes = new Uint8Array(ED25519_PUB_MULTICODEC.length + publicKey.length);
  bytes.set(ED25519_PUB_MULTICODEC);
  bytes.set(publicKey, ED25519_PUB_MULTICODEC.length);
  return `z${encodeBase58(bytes)}`;
};

const didDocumentOf = (did: string, kid: string, publicJwk: PublicJwk) => ({
  "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
  id: did,
  verificationMethod: [{ id: kid, type: "JsonWebKey2020", controller: did, publicKeyJwk: publicJwk }],
  assertionMethod: [kid],
});

/** The key of `seed` (32 bytes), named by did:web of `publicOrigin` when given, else by did:key. */
export const receiptKeyOf = (seed: Uint8Array, publicOrigin?: string): ReceiptKey => {
  if (seed.length !== SEED_BYTES) throw new Error(`an Ed25519 seed has ${SEED_BYTES} bytes`);
  const der = new Uint8Array(PKCS8_ED25519_PREFIX.length + SEED_BYTES);
  der.set(PKCS8_ED25519_PREFIX);
  der.set(seed, PKCS8_ED25519_PREFIX.length);
  const privateKey: KeyObject = createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs8" });
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  const publicJwk: PublicJwk = { kty: "OKP", crv: "Ed25519", x: String(jwk.x), alg: "EdDSA" };
  const multibase = multibaseOf(Buffer.from(publicJwk.x, "base64url"));
  // The fragment names this very key, so a rotated key is another verification method.
  const did = publicOrigin === undefined ? `did:key:${multibase}` : didWebOf(publicOrigin);
  const kid = `${did}#${multibase}`;
  return {
    kid,
    publicJwk,
    didDocument: publicOrigin === undefined ? undefined : didDocumentOf(did, kid, publicJwk),
    sign: (bytes) => new Uint8Array(sign(null, bytes, privateKey)),
  };
};
