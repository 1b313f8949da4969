/**
 * The chat's 402 with x402 v2 offered: one PAYMENT-REQUIRED header carrying the offer, its
 * extensions (payment identifier, bazaar, signed offer) and, added last, the same sign-in
 * challenge as the JSON body: the header is built once, with everything in it.
 */
import { expect, test } from "bun:test";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { receiptKeyOf } from "../../src/payments/offer-receipt/receipt-key.ts";
import { SIGN_IN_WITH_X } from "../../src/sign-in/wallet-sign-in.ts";
import { testApps } from "../support/test-app.ts";
import { offlineFacilitator } from "../support/x402-v2.ts";

const build = testApps();

test("a chat 402's PAYMENT-REQUIRED carries the offer's extensions and the body's sign-in challenge", async () => {
  const t = build({
    freeQueries: 0,
    facilitator: await offlineFacilitator(),
    receiptKey: receiptKeyOf(new Uint8Array(32).fill(7), "https://docs.example"),
    surface: { publicOrigin: "https://docs.example" },
  });
  const response = await t.call("/api/chat", {
    method: "POST",
    headers: { "Content-Type": "application/json", Host: "docs.example" },
    body: JSON.stringify({ message: "hi" }),
  });
  expect(response.status).toBe(402);
  const body = await response.json();
  const required = decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") ?? "");
  expect(Object.keys(required.extensions ?? {}).sort()).toEqual([
    "bazaar",
    "offer-receipt",
    "payment-identifier",
    SIGN_IN_WITH_X,
  ]);
  expect(body.extensions[SIGN_IN_WITH_X].info.nonce).toBeString();
  expect(required.extensions?.[SIGN_IN_WITH_X]).toEqual(body.extensions[SIGN_IN_WITH_X]);
});
