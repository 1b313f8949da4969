/** Comparing a presented secret (a bearer token, a signature) with the expected one. */
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** A token's SHA-256 in hex: what a sites file keeps of an owner's console token (never the token). */
export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** Equal texts, compared in time independent of where they differ or how long they are (over SHA-256 digests). */
export const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(digest(given), digest(expected));
