/**
 * The ed25519 check of a sign-in proof: the wallet's key signed the exact SIWS text rebuilt from
 * the proof's own fields (core/sign-in/sign-in-message.ts). Web Crypto through @solana/kit, so it
 * runs on Bun, Deno and in browsers alike.
 */
import {
  address,
  getBase58Encoder,
  getPublicKeyFromAddress,
  type SignatureBytes,
  verifySignature,
} from "@solana/kit";
import { type SignInProof, signInMessage } from "../../core/sign-in/sign-in-message.ts";

export const isProofSigned = async (proof: SignInProof): Promise<boolean> => {
  try {
    const signature = getBase58Encoder().encode(proof.signature);
    if (signature.length !== 64) return false;
    const key = await getPublicKeyFromAddress(address(proof.address));
    const message = new TextEncoder().encode(signInMessage(proof, proof.address));
    return await verifySignature(key, signature as SignatureBytes, message);
  } catch {
    // Not base58, or a key Web Crypto refuses to import (not a curve point): it signs nothing.
    return false;
  }
};
