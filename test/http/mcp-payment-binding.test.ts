/**
 * x402's MCP transport, "Binding Selection": a tools/call that advertises `org.x402/payment` in
 * its per-request client capabilities (MCP 2026-07-28) gets `resultType: "payment_required"`
 * with the PaymentRequired; one that does not keeps the tool-result binding (`isError`, the
 * PaymentRequired as structured content and text); a 2026-07-28 result otherwise says
 * `resultType: "complete"`. Raw JSON-RPC, as a 2026-07-28 client would send it.
 */
import { describe, expect, test } from "bun:test";
import { testApps } from "../support/test-app.ts";
import { offlineFacilitator } from "../support/x402-v2.ts";

const build = testApps();
const REVISION = "2026-07-28";

const call = async (t: ReturnType<typeof build>, name: string, args: object, meta?: object) => {
  const response = await t.call("/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: Record<string, unknown> }).result;
};
const advertising = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "org.x402/payment": {} } },
};

describe("payment-required results over MCP", () => {
  test("a client that advertises org.x402/payment gets payment_required with the PaymentRequired", async () => {
    const t = build({ freeQueries: 0, facilitator: await offlineFacilitator() });
    const result = await call(t, "ask_docs", { question: "How do I write a file?" }, advertising);
    expect(result.resultType).toBe("payment_required");
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toBeUndefined();
    expect(result.paymentRequired).toMatchObject({ x402Version: 2, accepts: [{ scheme: "exact" }] });
  });

  test("a client that does not keeps the tool-result binding, as the official clients read it", async () => {
    const t = build({ freeQueries: 0, facilitator: await offlineFacilitator() });
    for (const meta of [undefined, { "io.modelcontextprotocol/protocolVersion": REVISION }]) {
      const result = await call(t, "ask_docs", { question: "How do I write a file?" }, meta);
      // On 2026-07-28 the tool-result binding is a complete result too (the transport says MUST).
      expect(result.resultType).toBe(meta === undefined ? undefined : "complete");
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ x402Version: 2, accepts: [{ scheme: "exact" }] });
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(
        result.structuredContent,
      );
    }
  });

  test("on 2026-07-28 every other result says complete; before it, nothing is added", async () => {
    const t = build({ freeQueries: 0, facilitator: await offlineFacilitator() });
    const complete = await call(t, "search_docs", { query: "write a file" }, advertising);
    expect(complete.resultType).toBe("complete");
    expect(complete.isError).toBeUndefined();
    const older = await call(t, "search_docs", { query: "write a file" });
    expect(older.resultType).toBeUndefined();
  });
});
