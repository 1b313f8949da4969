/**
 * The RequestSeal port over a 32-byte key with HMAC-SHA256 (node:crypto, which Bun and Deno
 * provide): synchronous, so a 402 costs no await and a check no store round trip.
 */
import { createHmac, randomBytes } from "node:crypto";
import { RequestSeal } from "../../core/ports/request-seal.ts";

/** A fresh key for a store that keeps it (hex, 32 bytes). */
export const newSealKey = (): string => randomBytes(32).toString("hex");

export const hmacSeal = (keyHex: string) => {
  const key = Buffer.from(keyHex, "hex");
  return RequestSeal.of({
    mac: (purpose, message) => createHmac("sha256", key).update(`${purpose}\n${message}`).digest("hex"),
  });
};
