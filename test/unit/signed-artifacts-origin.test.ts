/**
 * Signed offers and receipts name PUBLIC_ORIGIN, never the Host a client sent: on an open bind
 * without the Host guard, a payer could otherwise get the service's signature on a receipt for
 * a domain of its choosing (an attacker's reading of offer-receipt).
 */
import { expect, test } from "bun:test";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { serviceMetadataOf } from "../../src/payments/bazaar/service-metadata.ts";
import { receiptKeyOf } from "../../src/payments/offer-receipt/receipt-key.ts";
import { receiptOf, x402Extensions } from "../../src/payments/v2/x402-extensions.ts";

const payloadOf = (jws: string) =>
  JSON.parse(Buffer.from(jws.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;

const settled: SettleResponse = {
  success: true,
  transaction: "5".repeat(64),
  network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  payer: "11111111111111111111111111111111",
};

const extensionsWith = (publicOrigin: string | undefined) =>
  x402Extensions({
    key: receiptKeyOf(new Uint8Array(32).fill(7), publicOrigin),
    entries: [],
    service: serviceMetadataOf(undefined),
    publicOrigin,
  });

test("with PUBLIC_ORIGIN, a receipt and the offer's resource name it, whatever the request's Host", () => {
  const extensions = extensionsWith("https://docs.example.com");
  const receipt = receiptOf(extensions.settled(settled, "http://victim-brand.example/api/chat?x=1"));
  expect(payloadOf(receipt?.signature ?? "").resourceUrl).toBe("https://docs.example.com/api/chat?x=1");
  const required = {
    x402Version: 2,
    resource: { url: "http://victim-brand.example/api/chat", description: "", mimeType: "application/json" },
    accepts: [],
  } as unknown as PaymentRequired;
  expect(extensions.offered(required, "/api/chat").resource.url).toBe("https://docs.example.com/api/chat");
});

test("without PUBLIC_ORIGIN, the request's own URL (loopback binds serve loopback Hosts only)", () => {
  const receipt = receiptOf(extensionsWith(undefined).settled(settled, "http://localhost:3000/api/chat"));
  expect(payloadOf(receipt?.signature ?? "").resourceUrl).toBe("http://localhost:3000/api/chat");
});
