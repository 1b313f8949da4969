import { describe, expect, test } from "bun:test";
import * as Base64 from "effect/encoding/Base64";
import * as Result from "effect/Result";
import fc from "fast-check";
import { decodeAuthorizationHeader, encodeAuthorizationHeader } from "../../core/payments/x402.ts";
import { authorization } from "../support/core-arbitraries.ts";

const RUNS = { numRuns: 500 };

describe("X-Payment-Authorization header codec", () => {
  test("round-trips every valid authorization", () => {
    fc.assert(
      fc.property(authorization, (value) => {
        const header = encodeAuthorizationHeader(value);
        expect(header).toMatch(/^[A-Za-z0-9+/]*=*$/);
        const back = decodeAuthorizationHeader(header);
        if (Result.isFailure(back)) throw new Error(back.failure);
        expect(back.success).toEqual(value);
      }),
      RUNS,
    );
  });

  test("any header text yields a result, never an exception", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (header) => {
        expect(Result.isResult(decodeAuthorizationHeader(header))).toBe(true);
      }),
      RUNS,
    );
  });

  test("base64 of arbitrary JSON is refused unless it is a valid authorization", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = decodeAuthorizationHeader(Base64.encode(JSON.stringify(value) ?? "null"));
        expect(Result.isFailure(result)).toBe(true);
      }),
      RUNS,
    );
  });

  test("dropping any field of a valid authorization is refused", () => {
    fc.assert(
      fc.property(authorization, fc.nat(), (value, pick) => {
        const keys = Object.keys(value);
        const drop = keys[pick % keys.length] ?? "";
        const partial = Object.fromEntries(Object.entries(value).filter(([key]) => key !== drop));
        expect(Result.isFailure(decodeAuthorizationHeader(Base64.encode(JSON.stringify(partial))))).toBe(
          true,
        );
      }),
      RUNS,
    );
  });
});
