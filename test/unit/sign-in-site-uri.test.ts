/**
 * A hosted site's sign-in names the site in the URI a wallet signs (`/sites/<id>/...`), and a
 * proof whose URI is the service's own or another site's is refused as "wrong-uri".
 */
import { describe, expect, test } from "bun:test";
import { SIGN_IN_TYPE, SIGN_IN_VERSION } from "../../core/sign-in/sign-in-message.ts";
import { checkSignInFields } from "../../core/sign-in/sign-in-rules.ts";

const NOW = Date.parse("2026-11-26T12:00:00.000Z");
const proof = (uri: string) => ({
  domain: "chat.example.com",
  address: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  uri,
  version: SIGN_IN_VERSION,
  chainId: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  type: SIGN_IN_TYPE,
  nonce: "n".repeat(32),
  issuedAt: new Date(NOW - 1000).toISOString(),
  signature: "s".repeat(88),
});
const site = {
  origin: "https://chat.example.com",
  chainId: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  basePath: "/sites/alpha",
  now: NOW,
};

describe("the URI of a hosted site's sign-in", () => {
  test("under the site's path passes", () => {
    expect(
      checkSignInFields(proof("https://chat.example.com/sites/alpha/api/session"), site),
    ).toBeUndefined();
  });
  test.each([
    "https://chat.example.com/api/session",
    "https://chat.example.com/sites/beta/api/session",
    "https://chat.example.com/sites/alphabet/api/session",
    "https://evil.example/sites/alpha/api/session",
  ])("%s is refused", (uri) => {
    expect(checkSignInFields(proof(uri), site)).toBe("wrong-uri");
  });
  test("the default site accepts any path on its origin, as before", () => {
    const { basePath: _, ...service } = site;
    expect(checkSignInFields(proof("https://chat.example.com/api/session"), service)).toBeUndefined();
  });
});
