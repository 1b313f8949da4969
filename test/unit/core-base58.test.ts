import { describe, expect, test } from "bun:test";
import { decodeBase58, encodeBase58 } from "../../core/base58.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (s: string) => new TextEncoder().encode(s);

describe("base58", () => {
  test("known vectors (Bitcoin alphabet)", () => {
    expect(encodeBase58(text("Hello World!"))).toBe("2NEpo7TZRRrLZSi2U");
    expect(encodeBase58(text("The quick brown fox jumps over the lazy dog"))).toBe(
      "7DdiPPYtxLjCD3wA1po2rvZHTDYjkZYiEtazrfiwJcwnKCizhGFhBGHeRdx",
    );
    expect(encodeBase58(bytes(0xff))).toBe("5Q");
    expect(encodeBase58(bytes(0x39))).toBe("z");
    expect(decodeBase58("2NEpo7TZRRrLZSi2U")).toEqual(text("Hello World!"));
  });

  test("the Solana system program id is 32 zero bytes", () => {
    const zeros = new Uint8Array(32);
    expect(encodeBase58(zeros)).toBe("11111111111111111111111111111111");
    expect(decodeBase58("11111111111111111111111111111111")).toEqual(zeros);
  });

  test("leading zero bytes become leading '1's and back", () => {
    expect(encodeBase58(bytes(0, 0, 0, 1))).toBe("1112");
    expect(decodeBase58("1112")).toEqual(bytes(0, 0, 0, 1));
    expect(encodeBase58(bytes(0))).toBe("1");
    expect(decodeBase58("1")).toEqual(bytes(0));
    expect(decodeBase58("11")).toEqual(bytes(0, 0));
    expect(encodeBase58(bytes(0, 0xff))).toBe("15Q");
  });

  test("empty input", () => {
    expect(encodeBase58(new Uint8Array())).toBe("");
    expect(decodeBase58("")).toEqual(new Uint8Array());
  });

  test("round trip of many byte strings, including 32 and 64 bytes", () => {
    for (let length = 0; length <= 70; length++) {
      for (const seed of [0, 1, 97, 255]) {
        const input = Uint8Array.from({ length }, (_, i) =>
          i === 0 && seed === 0 ? 0 : (seed * 31 + i * 17) & 0xff,
        );
        expect(decodeBase58(encodeBase58(input))).toEqual(input);
      }
    }
  });

  test("characters outside the alphabet are refused", () => {
    for (const bad of ["0", "O", "I", "l", "+", "/", "=", " ", "abc0", "2NEpo7TZRRrLZSi2U!", "é", "1 1"])
      expect(decodeBase58(bad)).toBeUndefined();
  });
});
