/**
 * The protocol's codecs, for every valid value: the 402 body the server writes is what the
 * client reads, the receipt header round-trips, the signed message has exactly one reading, and
 * an ed25519 signature over it verifies for its own fields only.
 */
import { describe, expect, test } from "bun:test";
import { generateKeyPairSigner } from "@solana/kit";
import * as Result from "effect/Result";
import fc from "fast-check";
import { encodeBase58 } from "../../core/base58.ts";
import { formatUnits } from "../../core/payments/money.ts";
import {
  AUTHORIZATION_MESSAGE_HEADER,
  authorizationMessage,
  paymentRequestFromJson,
  paymentRequestToJson,
} from "../../core/payments/x402.ts";
import {
  decodeReceiptHeader,
  encodeReceiptHeader,
  type PaymentReceipt,
} from "../../core/payments/x402-receipt.ts";
import { isAuthorizationSigned, signAuthorization } from "../../src/payments/authorization-signature.ts";
import { readPaymentRequest } from "../../src/payments/client/payment-required.ts";
import { paymentRequestOf } from "../../src/payments/server/issue-request.ts";
import {
  address,
  authorization,
  paymentRequest,
  txSignature,
  x402Network,
} from "../support/core-arbitraries.ts";

const RUNS = { numRuns: 300 };

describe("payment request codec", () => {
  test("JSON text round-trips every valid request, with the spec's field names", () => {
    fc.assert(
      fc.property(paymentRequest, (request) => {
        const json = paymentRequestToJson(request);
        expect(Object.keys(JSON.parse(json)).sort()).toEqual(
          [
            "asset_address",
            "asset_type",
            "description",
            "expires_at",
            "max_amount_required",
            "network",
            "nonce",
            "payment_address",
            "payment_id",
            "resource",
          ].sort(),
        );
        expect(Result.getOrUndefined(paymentRequestFromJson(json))).toEqual(request);
      }),
      RUNS,
    );
  });

  const issued = fc.record({
    paymentId: fc.stringMatching(/^pay_[1-9A-HJ-NP-Za-km-z]{22}$/),
    nonce: fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32}$/),
    resource: fc.string({ maxLength: 100 }).map((path) => `/${path}`),
    method: fc.constantFrom("GET", "POST", "PUT", "DELETE"),
    units: fc.bigInt({ min: 1n, max: 10n ** 15n }),
    payTo: address,
    mint: address,
    network: x402Network,
    expiresAt: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) }),
    description: fc.string({ maxLength: 100 }),
  });

  test("the 402 body the server writes is the request the client reads, amounts exact", async () => {
    await fc.assert(
      fc.asyncProperty(issued, fc.dictionary(fc.string(), fc.jsonValue()), async (value, extra) => {
        const body = paymentRequestOf(value);
        // Extra fields (the error object, a chat's rateLimit) never disturb the reading.
        const response = new Response(JSON.stringify({ ...extra, ...body }), { status: 402 });
        const read = await readPaymentRequest(response);
        expect(read).toEqual(body);
        expect(read.max_amount_required).toBe(formatUnits(value.units));
        expect(Date.parse(read.expires_at)).toBe(value.expiresAt);
      }),
      RUNS,
    );
  });
});

describe("receipt header", () => {
  const receipt: fc.Arbitrary<PaymentReceipt> = fc.record({
    payment_id: fc.stringMatching(/^[A-Za-z0-9_-]{8,128}$/),
    transaction_hash: txSignature,
    network: x402Network,
    amount: fc.bigInt({ min: 0n, max: 10n ** 15n }).map(formatUnits),
    payer: address,
    resource: fc.string({ unit: "binary", maxLength: 200 }),
  });

  test("round-trips", () => {
    fc.assert(
      fc.property(receipt, (value) => {
        expect(decodeReceiptHeader(encodeReceiptHeader(value))).toEqual(value);
      }),
      RUNS,
    );
  });

  test("any other text is no receipt, never an exception", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        expect(() => decodeReceiptHeader(text)).not.toThrow();
      }),
      RUNS,
    );
  });
});

describe("the signed message", () => {
  /** The fields read back from a message. */
  const parse = (message: string) => {
    const [header, ...lines] = message.split("\n");
    return { header, fields: Object.fromEntries(lines.map((line) => line.split("=") as [string, string])) };
  };

  test("reads back to exactly the fields it was made from", () => {
    fc.assert(
      fc.property(authorization, (value) => {
        const { header, fields } = parse(authorizationMessage(value));
        const { signature: _, ...unsigned } = value;
        expect(header).toBe(AUTHORIZATION_MESSAGE_HEADER);
        expect(fields).toEqual(unsigned);
      }),
      RUNS,
    );
  });

  test("two authorizations that differ outside the signature never share a message", () => {
    fc.assert(
      fc.property(authorization, authorization, (a, b) => {
        const { signature: _a, ...left } = a;
        const { signature: _b, ...right } = b;
        fc.pre(JSON.stringify(left) !== JSON.stringify(right));
        expect(authorizationMessage(a)).not.toBe(authorizationMessage(b));
      }),
      RUNS,
    );
  });
});

describe("ed25519 signature of an authorization", () => {
  const changeable = [
    "payment_id",
    "actual_amount",
    "payment_address",
    "asset_address",
    "network",
    "timestamp",
    "transaction_hash",
  ] as const;

  test("verifies for the signed fields and fails after any change", async () => {
    const signer = await generateKeyPairSigner();
    const stranger = await generateKeyPairSigner();
    await fc.assert(
      fc.asyncProperty(
        authorization,
        authorization,
        fc.constantFrom(...changeable),
        async (value, other, field) => {
          const unsigned = { ...value, public_key: signer.address };
          const signed = { ...unsigned, signature: await signAuthorization(signer, unsigned) };
          expect(await isAuthorizationSigned(signed)).toBe(true);
          fc.pre(other[field] !== value[field]);
          expect(await isAuthorizationSigned({ ...signed, [field]: other[field] })).toBe(false);
          // Another key's signature, or the right signature claimed for another key, fails.
          const byStranger = await signAuthorization(stranger, { ...unsigned, public_key: stranger.address });
          expect(await isAuthorizationSigned({ ...signed, signature: byStranger })).toBe(false);
          expect(await isAuthorizationSigned({ ...signed, public_key: stranger.address })).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  test("any 64 bytes that are not the signature fail, and so do keys that are not curve points", async () => {
    const signer = await generateKeyPairSigner();
    await fc.assert(
      fc.asyncProperty(
        authorization,
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        address,
        async (value, bytes, key) => {
          expect(
            await isAuthorizationSigned({
              ...value,
              public_key: signer.address,
              signature: encodeBase58(bytes),
            }),
          ).toBe(false);
          expect(await isAuthorizationSigned({ ...value, public_key: key })).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});
