/**
 * GET /.well-known/x402.json: exactly the paid resources the app mounts, each offering what its
 * live 402 offers (price, asset, payTo, network, fee payer, the payment-identifier declaration);
 * no items while x402 v2 is not offered.
 */
import { describe, expect, test } from "bun:test";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { isPaymentIdentifierRequired } from "@x402/extensions/payment-identifier";
import { testApps } from "../support/test-app.ts";
import { offlineFacilitator } from "../support/x402-v2.ts";

const build = testApps();

const facilitator = () => offlineFacilitator();

const terms = (requirements: PaymentRequirements | undefined) => ({
  scheme: requirements?.scheme,
  network: requirements?.network,
  amount: requirements?.amount,
  asset: requirements?.asset,
  payTo: requirements?.payTo,
  feePayer: requirements?.extra?.feePayer,
});

/** A JSON Schema that is a `$ref` into its own `$defs`, resolved. */
const resolved = (schema: {
  $ref?: string;
  $defs?: Record<string, { properties?: object }>;
  properties?: object;
}) => (schema.$ref === undefined ? schema : schema.$defs?.[schema.$ref.replace("#/$defs/", "")]);

const askDocs = (t: ReturnType<typeof build>) =>
  t.call("/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ask_docs", arguments: { question: "How do I write a file?" } },
    }),
  });

describe("GET /.well-known/x402.json", () => {
  test("lists exactly /api/chat and the ask_docs tool, with what their live 402s offer", async () => {
    const t = build({ freeQueries: 0, facilitator: await facilitator() });
    const response = await t.call("/.well-known/x402.json");
    expect(response.status).toBe(200);
    const manifest = await response.json();
    expect(manifest.x402Version).toBe(2);
    expect(Number.isInteger(manifest.lastUpdated)).toBe(true);
    expect(
      manifest.items.map((item: { type: string; resource: { url: string } }) => [
        item.type,
        item.resource.url,
      ]),
    ).toEqual([
      ["http", "http://localhost/api/chat"],
      ["mcp", "http://localhost/mcp"],
    ]);
    const [chat, mcp] = manifest.items;
    expect(chat.input).toMatchObject({ method: "POST", bodyType: "json" });
    expect(resolved(chat.input.body)?.properties).toHaveProperty("message");
    expect(resolved(chat.output.schema)?.properties).toHaveProperty("response");
    expect(mcp.input).toMatchObject({ toolName: "ask_docs", transport: "streamable-http" });
    expect(mcp.input.inputSchema.required).toEqual(["question"]);
    expect(mcp.output.schema.required).toContain("answer");

    const live = await t.chat("How do I write a file?");
    expect(live.status).toBe(402);
    const required = decodePaymentRequiredHeader(live.headers.get("PAYMENT-REQUIRED") ?? "");
    expect(chat.resource.description).toBe(required.resource.description);
    expect(terms(chat.accepts[0])).toEqual(terms(required.accepts[0]));

    const result = (await (await askDocs(t)).json()).result;
    expect(result.isError).toBe(true);
    expect(terms(mcp.accepts[0])).toEqual(terms(result.structuredContent.accepts[0]));
    expect(mcp.resource.description).toBe(result.structuredContent.resource.description);
    // payment-identifier is declared as the live 402s declare it, read by @x402/extensions' own helper.
    for (const [item, live402] of [
      [chat, required],
      [mcp, result.structuredContent],
    ] as const) {
      expect(item.extensions["payment-identifier"]).toEqual(live402.extensions["payment-identifier"]);
      expect(isPaymentIdentifierRequired(item.extensions["payment-identifier"])).toBe(false);
    }
  });

  test("X402_PAYMENT_ID_REQUIRED makes every item's payment-identifier required", async () => {
    const t = build({ facilitator: { ...(await facilitator()), paymentIdRequired: true } });
    const manifest = await (await t.call("/.well-known/x402.json")).json();
    for (const item of manifest.items)
      expect(isPaymentIdentifierRequired(item.extensions["payment-identifier"])).toBe(true);
  });

  test("PUBLIC_ORIGIN names the resources' URLs", async () => {
    const t = build({
      facilitator: await facilitator(),
      surface: { publicOrigin: "https://docs.example.com" },
    });
    const manifest = await (await t.call("/.well-known/x402.json")).json();
    expect(manifest.items[0].resource.url).toBe("https://docs.example.com/api/chat");
  });

  test("without x402 v2 (no facilitator) it lists nothing, as the chat's 402 offers no v2", async () => {
    const t = build({ freeQueries: 0 });
    const manifest = await (await t.call("/.well-known/x402.json")).json();
    expect(manifest).toMatchObject({ x402Version: 2, items: [] });
    expect((await t.chat("How do I write a file?")).headers.get("PAYMENT-REQUIRED")).toBeNull();
  });
});
