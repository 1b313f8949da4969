/**
 * The ed25519 signature of an X-Payment-Authorization: the payer signs the exact text of
 * `authorizationMessage` (core/payments/x402.ts) with the key of `public_key`, and the server checks it.
 * Web Crypto through @solana/kit, so the same code runs on Bun, Node, Deno and in browsers.
 */
import {
  address,
  createSignableMessage,
  getBase58Decoder,
  getBase58Encoder,
  getPublicKeyFromAddress,
  type MessagePartialSigner,
  type SignatureBytes,
  verifySignature,
} from "@solana/kit";
import { authorizationMessage, type PaymentAuthorization } from "../../core/payments/x402.ts";

const messageBytes = (authorization: Omit<PaymentAuthorization, "signature">): Uint8Array =>
  new TextEncoder().encode(authorizationMessage(authorization));

/** Signs the authorization with `signer` (its address must be `public_key`); the base58 signature. */
export const signAuthorization = async (
  signer: MessagePartialSigner,
  authorization: Omit<PaymentAuthorization, "signature">,
): Promise<string> => {
  if (signer.address !== authorization.public_key)
    throw new Error("the signer's address must be the authorization's public_key");
  const [signatures] = await signer.signMessages([createSignableMessage(messageBytes(authorization))]);
  const signature = signatures?.[signer.address];
  if (signature === undefined) throw new Error("the signer returned no signature");
  return getBase58Decoder().decode(signature);
};

/** Whether `signature` is `public_key`'s ed25519 signature of the authorization message. */
export const isAuthorizationSigned = async (authorization: PaymentAuthorization): Promise<boolean> => {
  try {
    const key = await getPublicKeyFromAddress(address(authorization.public_key));
    const signature = getBase58Encoder().encode(authorization.signature) as SignatureBytes;
    return await verifySignature(key, signature, messageBytes(authorization));
  } catch {
    // A key Web Crypto refuses to import (not a curve point) signs nothing.
    return false;
  }
};
