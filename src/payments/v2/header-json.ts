/**
 * JSON in an x402 v2 header (PAYMENT-REQUIRED, PAYMENT-RESPONSE): base64 of its UTF-8 bytes,
 * exactly the text @x402/core's encoders write (test/unit/header-json.test.ts holds them equal).
 * Ours because theirs builds the base64 input one character at a time (Array.from over the
 * bytes, a string per byte): a 402 carries about 6,700 characters of header, and that loop was
 * a third of a 402's CPU time (docs/performance.md). A 402 encodes its header once: the sign-in
 * challenge joins the offer before it is encoded (advertise.ts).
 */
import { Buffer } from "node:buffer";

/** The header text of `value`. */
export const encodeHeaderJson = (value: unknown): string =>
  Buffer.from(JSON.stringify(value), "utf8").toString("base64");
