/** Wire transactions as clients send them: base58/base64 text -> kit Transaction + compiled message. */
import {
  type Address,
  type CompiledTransactionMessageWithLifetime,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type LegacyCompiledTransactionMessage,
  type Transaction,
  type V0CompiledTransactionMessage,
} from "@solana/kit";
import { invalidParams, isRpcFailure } from "./rpc-failure.ts";

/** Legacy and v0 messages (what LiteSVM executes); v1 is refused at decoding. */
export type CompiledMessage = (LegacyCompiledTransactionMessage | V0CompiledTransactionMessage) &
  CompiledTransactionMessageWithLifetime;

export interface WireTransaction {
  readonly transaction: Transaction;
  readonly message: CompiledMessage;
  readonly bytes: Uint8Array;
  /** Base58 signatures in order; the first is the transaction id. */
  readonly signatures: ReadonlyArray<string>;
  readonly accountKeys: ReadonlyArray<Address>;
}

const ZERO_SIGNATURE = new Uint8Array(64);

/** Base58 text of signature bytes (all zeros for a missing signature). */
export const signatureText = (bytes: Uint8Array | null | undefined): string =>
  getBase58Decoder().decode(bytes ?? ZERO_SIGNATURE);

const textToBytes = (text: string, encoding: string): Uint8Array => {
  if (encoding === "base64") return new Uint8Array(getBase64Encoder().encode(text));
  if (encoding === "base58") return new Uint8Array(getBase58Encoder().encode(text));
  throw invalidParams(
    `Invalid params: unsupported encoding: ${encoding}. Supported encodings: base58, base64`,
  );
};

/** Decodes a wire transaction; anything that does not decode is an invalid-params error. */
export const decodeWire = (text: unknown, encoding: string): WireTransaction => {
  if (typeof text !== "string" || text.length === 0)
    throw invalidParams("Invalid params: expected a transaction string");
  try {
    const bytes = textToBytes(text, encoding);
    const transaction = getTransactionDecoder().decode(bytes);
    const decoded = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    if (decoded.version !== "legacy" && decoded.version !== 0) {
      throw invalidParams(`Transaction version (${decoded.version}) is not supported by this local chain`);
    }
    const message = decoded as CompiledMessage;
    if (message.version === 0 && (message.addressTableLookups?.length ?? 0) > 0) {
      throw invalidParams("Address lookup tables are not supported by this local chain");
    }
    return {
      transaction,
      message,
      bytes,
      signatures: Object.values(transaction.signatures).map((signature) => signatureText(signature)),
      accountKeys: message.staticAccounts,
    };
  } catch (cause) {
    if (isRpcFailure(cause)) throw cause;
    throw invalidParams(
      `failed to deserialize transaction: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
};
