/**
 * Decoding of a payer link's hash (layout: link-lua.ts) into a PayerLink, for reads computed in
 * JS by core/payments/link-allowance.ts. The rules are link-lua.ts's link_load: w, g, e and a
 * present, numbers non-negative integers of at most 15 digits, holds "h:<id>" -> expiresAt; any
 * other field is corrupt and refused, never guessed at.
 */
import type { LinkHold, PayerLink } from "../../../core/payments/link-allowance.ts";

const NUMBER = /^\d{1,15}$/;

/** The link in a flat HGETALL reply, null when there is none, undefined when it is corrupt. */
export const decodeLinkHash = (pairs: ReadonlyArray<unknown>): PayerLink | null | undefined => {
  if (pairs.length === 0) return null;
  let wallet: string | undefined;
  const numbers: Record<string, number> = {};
  const holds: LinkHold[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const field = pairs[i];
    const value = pairs[i + 1];
    if (typeof field !== "string" || typeof value !== "string") return undefined;
    if (field === "w") {
      wallet = value;
      continue;
    }
    if (!NUMBER.test(value)) return undefined;
    if (field.startsWith("h:")) holds.push({ id: field.slice(2), expiresAt: Number(value) });
    else if (field === "g" || field === "e" || field === "a") numbers[field] = Number(value);
    else return undefined;
  }
  const { g, e, a } = numbers;
  if (wallet === undefined || g === undefined || e === undefined || a === undefined) return undefined;
  return { wallet, generation: g, expiresAt: e, allowance: a, holds };
};

/** A flat HGETALL reply as a record (the shape decodeQuotaHash reads). */
export const pairsToRecord = (pairs: ReadonlyArray<unknown>): Record<string, string> | undefined => {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const field = pairs[i];
    const value = pairs[i + 1];
    if (typeof field !== "string" || typeof value !== "string") return undefined;
    record[field] = value;
  }
  return record;
};
