/**
 * JWS Compact Serialization (RFC 7515) with EdDSA, the offer-receipt extension's JWS format:
 * the protected header names the algorithm and the key (`kid`, a DID URL); the payload is the
 * artifact's JSON with its keys sorted (the extension's canonical form, RFC 8785 for the flat
 * objects signed here), so equal payloads give equal bytes.
 */
import type { ReceiptKey } from "./receipt-key.ts";

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
const encodeJson = (value: unknown): string => base64url(new TextEncoder().encode(JSON.stringify(value)));

/** The JSON of a flat object with its keys in code-point order (strings, integers, no nesting). */
export const canonicalJson = (payload: Readonly<Record<string, string | number>>): Record<string, unknown> =>
  Object.fromEntries(
    Object.keys(payload)
      .sort()
      .map((key) => [key, payload[key]]),
  );

/** `payload` signed by `key`: header.payload.signature. */
export const signJws = (payload: Readonly<Record<string, string | number>>, key: ReceiptKey): string => {
  const signingInput = `${encodeJson({ alg: "EdDSA", kid: key.kid })}.${encodeJson(canonicalJson(payload))}`;
  return `${signingInput}.${base64url(key.sign(new TextEncoder().encode(signingInput)))}`;
};
