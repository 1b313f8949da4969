import { describe, expect, test } from "bun:test";
import * as Base64 from "effect/encoding/Base64";
import * as Result from "effect/Result";
import { decodeAuthorizationHeader, encodeAuthorizationHeader } from "../../core/payments/x402.ts";
import { authorization } from "../support/x402-samples.ts";

describe("X-Payment-Authorization header codec", () => {
  test("round trip", () => {
    const header = encodeAuthorizationHeader(authorization);
    expect(header).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(atob(header))).toEqual(authorization);
    const back = decodeAuthorizationHeader(header);
    expect(Result.getOrUndefined(back)).toEqual(authorization);
    expect(Result.isSuccess(decodeAuthorizationHeader(` ${header} `))).toBe(true);
  });

  const refusal = (header: string): string => {
    const result = decodeAuthorizationHeader(header);
    if (Result.isSuccess(result)) throw new Error("accepted");
    return result.failure;
  };

  test("not base64", () => {
    expect(refusal("%%%not base64%%%")).toBe("not valid base64");
    expect(refusal("abc")).toBe("not valid base64");
  });

  test("base64 of something that is not JSON", () => {
    expect(refusal(Base64.encode("payment please"))).toStartWith("invalid authorization: ");
  });

  test("JSON of the wrong shape or with missing fields", () => {
    const { transaction_hash: _, ...missing } = authorization;
    for (const value of [missing, [], "x", 42, null, { ...authorization, network: "chain-moon" }])
      expect(refusal(Base64.encode(JSON.stringify(value)))).toStartWith("invalid authorization: ");
    expect(refusal(Base64.encode(JSON.stringify(missing)))).toContain("transaction_hash");
  });

  test("an over-long header is refused before decoding", () => {
    expect(refusal("A".repeat(4097))).toBe("header too long");
  });

  test("failures never echo the submitted values", () => {
    const marker = "ZZmarkerZZ";
    for (const field of Object.keys(authorization)) {
      const message = refusal(
        Base64.encode(JSON.stringify({ ...authorization, [field]: `${marker}!`.padEnd(300, "!") })),
      );
      expect(message).not.toContain(marker);
    }
  });
});
