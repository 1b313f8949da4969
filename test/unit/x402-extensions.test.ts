/**
 * The offer-receipt and bazaar extensions as the official @x402/extensions reads them: offers
 * and receipts signed with the service's Ed25519 key verify through the key named by their
 * `kid` (did:key, resolved by the extension itself under Node; or did:web with the document we
 * serve), a receipt matches its offer, a tampered JWS does not verify, and every paid
 * resource's bazaar declaration validates against the extension's own schema rules.
 */
import { describe, expect, test } from "bun:test";
import type { PaymentRequired } from "@x402/core/types";
import {
  type DiscoveryExtension,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from "@x402/extensions/bazaar";
import {
  decodeSignedOffers,
  extractJWSHeader,
  extractOffersFromPaymentRequired,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptMatchesOffer,
} from "@x402/extensions/offer-receipt";
import { DEFAULT_MCP_TOOL_PRICES } from "../../core/config/config-mcp.ts";
import { chatDiscoveryEntry } from "../../src/http/chat-discovery.ts";
import { mcpDiscoveryEntries } from "../../src/mcp/mcp-discovery.ts";
import { bazaarExtension } from "../../src/payments/bazaar/bazaar-declaration.ts";
import { receiptKeyOf } from "../../src/payments/offer-receipt/receipt-key.ts";
import { receiptOf, x402Extensions } from "../../src/payments/v2/x402-extensions.ts";
import { verifyOffer, verifyReceipt, verifyUnderNode } from "../support/offer-receipt.ts";

const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const PAYER = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const required: PaymentRequired = {
  x402Version: 2,
  error: "Payment required",
  resource: {
    url: "https://docs.example.com/api/chat",
    description: "Questions",
    mimeType: "application/json",
  },
  accepts: [
    {
      scheme: "exact",
      network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      amount: "10000",
      asset: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      payTo: "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",
      maxTimeoutSeconds: 300,
      extra: {},
    },
  ],
};
const entries = [
  chatDiscoveryEntry("/api/chat", 1_000n),
  ...mcpDiscoveryEntries("/mcp", { ...DEFAULT_MCP_TOOL_PRICES, search_docs: 1, read_page: 1 }, 1_000n),
];
const extensionsWith = (publicOrigin?: string) =>
  x402Extensions({
    key: receiptKeyOf(seed, publicOrigin),
    entries,
    service: { serviceName: "Docs assistant", tags: ["docs"] },
    now: () => Date.now(),
  });

describe("offer-receipt, verified by @x402/extensions", () => {
  test("each offer verifies through its did:key kid and says what accepts[] says", async () => {
    const offered = extensionsWith().offered(required, "/api/chat");
    const [offer] = extractOffersFromPaymentRequired(offered) as JWSSignedOffer[];
    if (offer === undefined) throw new Error("no offer");
    expect(extractJWSHeader(offer.signature)).toMatchObject({
      alg: "EdDSA",
      kid: expect.stringMatching(/^did:key:z6Mk/),
    });
    const payload = await verifyOffer(offer);
    const { extra: _extra, maxTimeoutSeconds: _timeout, ...terms } = required.accepts[0] ?? {};
    expect(payload).toMatchObject({ version: 1, resourceUrl: required.resource.url, ...terms });
    expect(payload.validUntil - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(299);
    expect(payload.validUntil - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(300);
  });

  test("a receipt verifies and matches its offer for the payer, not for another wallet", async () => {
    const extensions = extensionsWith();
    const [decoded] = decodeSignedOffers(
      extractOffersFromPaymentRequired(extensions.offered(required, "/api/chat")),
    );
    const settled = extensions.settled(
      {
        success: true,
        transaction: "5sig",
        network: required.accepts[0]?.network ?? "solana:x",
        payer: PAYER,
      },
      required.resource.url,
    );
    const receipt = receiptOf(settled) as JWSSignedReceipt;
    expect(await verifyReceipt(receipt)).toMatchObject({ payer: PAYER, transaction: "5sig", version: 1 });
    // The extension resolving the did:key itself (under Node: see test/support/offer-receipt.ts).
    expect(verifyUnderNode(receipt)).toMatchObject({ payer: PAYER, resourceUrl: required.resource.url });
    if (decoded === undefined) throw new Error("no offer");
    expect(verifyReceiptMatchesOffer(receipt, decoded, [PAYER])).toBe(true);
    expect(verifyReceiptMatchesOffer(receipt, decoded, [required.accepts[0]?.payTo ?? ""])).toBe(false);
  });

  test("a failed settlement carries no receipt", () => {
    const settled = extensionsWith().settled(
      { success: false, errorReason: "x", transaction: "5sig", network: "solana:x", payer: PAYER },
      required.resource.url,
    );
    expect(receiptOf(settled)).toBeUndefined();
  });

  test("a receipt whose payload was changed does not verify", async () => {
    const receipt = receiptOf(
      extensionsWith().settled(
        { success: true, transaction: "5sig", network: "solana:x", payer: PAYER },
        "u",
      ),
    ) as JWSSignedReceipt;
    const [header, , signature] = receipt.signature.split(".");
    const forged = Buffer.from(
      JSON.stringify({ issuedAt: 1, network: "solana:x", payer: "other", resourceUrl: "u", version: 1 }),
    ).toString("base64url");
    await expect(
      verifyReceipt({ format: "jws", signature: `${header}.${forged}.${signature}` }),
    ).rejects.toThrow();
  });

  test("with PUBLIC_ORIGIN the kid is did:web of it, and the did.json we serve holds the key that verifies", async () => {
    const key = receiptKeyOf(seed, "https://docs.example.com:8443");
    expect(key.kid.startsWith("did:web:docs.example.com%3A8443#z6Mk")).toBe(true);
    const document = key.didDocument as { verificationMethod: Array<{ id: string; publicKeyJwk: object }> };
    const method = document.verificationMethod.find((entry) => entry.id === key.kid);
    if (method === undefined) throw new Error("kid not in the document");
    const [offer] = extractOffersFromPaymentRequired(
      extensionsWith("https://docs.example.com:8443").offered(required, "/api/chat"),
    ) as JWSSignedOffer[];
    if (offer === undefined) throw new Error("no offer");
    expect(await verifyOfferSignatureJWS(offer, method.publicKeyJwk as never)).toMatchObject({
      amount: "10000",
    });
  });
});

describe("bazaar, validated by @x402/extensions", () => {
  test.each(
    entries.map(
      (entry) => [entry.type === "mcp" ? String(entry.input.toolName) : entry.path, entry] as const,
    ),
  )("%s declares input and output in the spec's shape", (_name, entry) => {
    const extension = bazaarExtension(entry) as unknown as DiscoveryExtension;
    expect(validateDiscoveryExtension(extension)).toEqual({ valid: true });
    expect(validateDiscoveryExtensionSpec(extension as unknown as Record<string, unknown>)).toEqual({
      valid: true,
    });
  });

  test("a declaration whose example breaks its schema is refused by the same validator (the check can fail)", () => {
    const chat = chatDiscoveryEntry("/api/chat", 1_000n);
    const broken = bazaarExtension({
      ...chat,
      example: { input: { message: 42 }, output: chat.example?.output },
    });
    expect(validateDiscoveryExtension(broken as unknown as DiscoveryExtension).valid).toBe(false);
  });
});
