/**
 * Our header codec (src/payments/v2/header-json.ts) writes exactly what @x402/core's encoders
 * write, and their decoder reads it back, for any JSON value (non-ASCII text included: a bazaar
 * service name, a description), so switching to it changes no byte on the wire.
 */
import { expect, test } from "bun:test";
import {
  decodePaymentRequiredHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import fc from "fast-check";
import { encodeHeaderJson } from "../../src/payments/v2/header-json.ts";

test("encodeHeaderJson is byte for byte @x402/core's encoder", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.string({ unit: "grapheme" }), (value, text) => {
      const required = {
        x402Version: 2,
        error: text,
        extensions: { any: value },
      } as unknown as PaymentRequired;
      const header = encodeHeaderJson(required);
      expect(header).toBe(encodePaymentRequiredHeader(required));
      expect(decodePaymentRequiredHeader(header)).toEqual(JSON.parse(JSON.stringify(required)));
      const settled = { success: true, transaction: text, network: "solana:x", payer: "p" } as SettleResponse;
      expect(encodeHeaderJson(settled)).toBe(encodePaymentResponseHeader(settled));
    }),
    { numRuns: 300 },
  );
});
