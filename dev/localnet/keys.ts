/**
 * Keypairs in the Solana CLI file format: a JSON list of 64 bytes (32-byte seed, then the
 * 32-byte public key). Secret bytes are only ever written to the files they belong in.
 */
import { readFile } from "node:fs/promises";
import {
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  type KeyPairSigner,
} from "@solana/kit";

export interface Keypair {
  readonly signer: KeyPairSigner;
  /** 64 bytes: seed then public key. */
  readonly secretKey: Uint8Array;
}

/** A fresh random keypair whose secret can be saved. */
export const newKeypair = async (): Promise<Keypair> => {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed);
  const secretKey = new Uint8Array(64);
  secretKey.set(seed);
  secretKey.set(getAddressEncoder().encode(signer.address), 32);
  return { signer, secretKey };
};

/** A signer from a parsed keypair file; fails with a plain message (never echoing the bytes). */
export const signerFromJson = async (value: unknown): Promise<KeyPairSigner> => {
  const valid =
    Array.isArray(value) &&
    value.length === 64 &&
    value.every((byte) => typeof byte === "number" && Number.isInteger(byte) && byte >= 0 && byte <= 255);
  if (!valid) throw new Error("a keypair must be a JSON list of 64 bytes (Solana CLI format)");
  try {
    return await createKeyPairSignerFromBytes(Uint8Array.from(value as ReadonlyArray<number>));
  } catch {
    throw new Error("the keypair's public half does not match its secret half");
  }
};

/** The file form of a keypair. */
export const keypairJson = (keypair: Keypair): ReadonlyArray<number> => Array.from(keypair.secretKey);

/** The signer in a Solana CLI keypair file; `unreadable` decides what a missing file means. */
export const loadKeypairFile = async (path: string, unreadable: () => never): Promise<KeyPairSigner> => {
  const text = await readFile(path, "utf8").catch(unreadable);
  try {
    return await signerFromJson(JSON.parse(text));
  } catch (cause) {
    throw new Error(`keypair file ${path}: ${cause instanceof Error ? cause.message : "not valid JSON"}`);
  }
};
