/** Keyed, daily-rotated visitor hashes (HMAC-SHA256): `VisitorHash.layer(secret)`. */
export * as VisitorHash from "./keyed-hash.ts";
