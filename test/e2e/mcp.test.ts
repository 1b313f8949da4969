/**
 * The MCP endpoint with the official MCP SDK client over Streamable HTTP, on the real app and a
 * real local chain: the tools an agent sees, a search, free questions, then the x402
 * payment-required result, paid with a PaymentPayload the official x402 client signs, the
 * answer with its settlement, the same payload refused the second time, and a malformed payment
 * answered as a tool result (never a JSON-RPC error).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PaymentRequired } from "@x402/core/types";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { connectMcp, textOf } from "../support/mcp-client.ts";
import { testApps } from "../support/test-app.ts";
import { officialClient, startChainWithFacilitator } from "../support/x402-v2.ts";

let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const servers: Array<ReturnType<typeof Bun.serve>> = [];
const build = testApps(afterAll);
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(async () => {
  for (const server of servers) await server.stop(true);
  await chain?.stop();
});

/** An app on the local chain served on loopback, every request from `from`; and an MCP client connected to it. */
const connect = async (from: string) =>
  connectMcp(
    build({
      freeQueries: 1,
      adminToken: ADMIN_TOKEN,
      ...(facilitator === undefined ? {} : { facilitator }),
      chain: chainReaderOf(chain),
    }),
    from,
    servers,
  );

const ADMIN_TOKEN = "an-admin-token-long-enough-1234567890";

const QUESTION = "How do I write a file?";

describe("the docs as MCP tools", () => {
  test("an agent sees the three tools with input schemas; the free ones declare their output, the priced one describes it", async () => {
    const client = await connect("198.51.100.60");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask_docs", "read_page", "search_docs"]);
    const ask = tools.find((tool) => tool.name === "ask_docs");
    expect(ask?.inputSchema.required).toEqual(["question"]);
    // A payment-required result's structured content is the PaymentRequired: a declared output
    // schema would make the SDK client refuse it.
    expect(ask?.outputSchema).toBeUndefined();
    expect(ask?.description).toContain("answer, declined, sources");
    expect(ask?.description).toContain("x402/payment");
    const search = tools.find((tool) => tool.name === "search_docs");
    expect(Object.keys(search?.outputSchema?.properties ?? {})).toEqual(["results"]);
    await client.close();
  });

  test("the current MCP revision and the previous one are both spoken", async () => {
    const client = await connect("198.51.100.64");
    const url = `http://127.0.0.1:${servers.at(-1)?.port}/mcp`;
    for (const protocolVersion of ["2025-11-25", "2025-06-18"]) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        }),
      });
      expect(response.status).toBe(200);
      const { result } = (await response.json()) as {
        result: { protocolVersion: string; serverInfo: { name: string } };
      };
      expect(result.protocolVersion).toBe(protocolVersion);
      expect(result.serverInfo.name).toBe("docs-chat");
    }
    await client.close();
  });

  test("read_page gives a search result's page in full, or one section by its anchor; an unknown page is an error result", async () => {
    const client = await connect("198.51.100.65");
    const found = await client.callTool({
      name: "search_docs",
      arguments: { query: "write a file", limit: 1 },
    });
    const [first] = (
      found.structuredContent as {
        results: Array<{ url: string; source: string; snippet: string; title: string }>;
      }
    ).results;
    if (first === undefined) throw new Error("no search result");
    const whole = await client.callTool({ name: "read_page", arguments: { page: first.source } });
    expect(whole.isError).toBeFalsy();
    const page = whole.structuredContent as {
      title: string;
      sections: Array<{ url: string; text: string }>;
      truncated: boolean;
    };
    expect(page.title).toBe(first.title);
    const text = page.sections.map((s) => s.text).join("\n");
    // The whole page holds the passage the search quoted (its first words at least).
    expect(text).toContain(first.snippet.slice(0, 40));
    if (first.url.includes("#")) {
      const one = await client.callTool({ name: "read_page", arguments: { page: first.url } });
      const sections = (one.structuredContent as { sections: Array<{ url: string }> }).sections;
      expect(sections.map((s) => s.url)).toEqual([first.url]);
    }
    const unknown = await client.callTool({ name: "read_page", arguments: { page: "no/such/page.md" } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("No page of these docs");
    await client.close();
  });

  test("search_docs gives the best passages with their sections and links, free", async () => {
    const client = await connect("198.51.100.61");
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({
        name: "search_docs",
        arguments: { query: "write a file", limit: 3 },
      });
      expect(result.isError).toBeFalsy();
      const { results } = result.structuredContent as { results: Array<{ number: number; title: string }> };
      expect(results.map((r) => r.number)).toEqual([1, 2, 3]);
    }
    await client.close();
  });

  test("ask_docs: a free answer, then a PaymentRequired result, paid over _meta, answered with its settlement, once", async () => {
    const client = await connect("198.51.100.62");
    // As an agent does: the tools listed first (the SDK client then checks results against them).
    await client.listTools();
    const free = await client.callTool({ name: "ask_docs", arguments: { question: QUESTION } });
    expect(free.isError).toBeFalsy();
    const answered = free.structuredContent as {
      answer: string;
      sources: Array<{ number: number }>;
      remaining: number;
    };
    expect(answered.sources.length).toBeGreaterThan(0);
    expect(answered.remaining).toBe(0);
    expect(textOf(free)).toContain("[1]");

    const asked = await client.callTool({ name: "ask_docs", arguments: { question: QUESTION } });
    expect(asked.isError).toBe(true);
    const required = asked.structuredContent as unknown as PaymentRequired;
    expect(required.x402Version).toBe(2);
    expect(required.accepts[0]).toMatchObject({
      scheme: "exact",
      amount: "10000",
      asset: chain.mint,
      payTo: chain.serviceWallet,
    });
    expect(JSON.parse(textOf(asked))).toEqual(required);

    const payer = await chain.fundPayer();
    const before = await chain.usdcBalance(payer.address);
    const payload = await officialClient({
      signer: payer,
      rpcUrl: chain.url,
      mint: chain.mint,
    }).createPaymentPayload(required);
    const paid = await client.callTool({
      name: "ask_docs",
      arguments: { question: QUESTION },
      _meta: { "x402/payment": payload },
    });
    expect(paid.isError).toBeFalsy();
    expect((paid.structuredContent as { remaining: number }).remaining).toBe(9);
    const settlement = (
      paid._meta as Record<string, { success: boolean; transaction: string; payer: string }>
    )["x402/payment-response"];
    expect(settlement).toMatchObject({ success: true, payer: payer.address });
    expect(before - (await chain.usdcBalance(payer.address))).toBe(10_000n);

    // The same payload again: refused with the reason, in a fresh offer; nothing moves.
    const again = await client.callTool({
      name: "ask_docs",
      arguments: { question: QUESTION },
      _meta: { "x402/payment": payload },
    });
    expect(again.isError).toBe(true);
    expect((again.structuredContent as unknown as PaymentRequired).error).toContain("payment-already-used");
    expect(before - (await chain.usdcBalance(payer.address))).toBe(10_000n);
    // The owner sees the agent's questions and payment as their own channel.
    const insights = await client.app.call("/api/admin/insights", {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const report = (await insights.json()) as {
      questionsByChannel: Array<{ channel: string; questions: number }>;
      revenue: { byDialect: Array<{ dialect: string; payments: number }> };
    };
    expect(report.questionsByChannel).toEqual([
      { channel: "chat", questions: 0 },
      { channel: "mcp", questions: 2 },
    ]);
    expect(report.revenue.byDialect.find((row) => row.dialect === "x402-mcp")?.payments).toBe(1);
    await client.close();
  });

  test("declined questions cost nothing: asked again and again, the one free question stays", async () => {
    const client = await connect("198.51.100.64");
    client.app.switches.offTopic = true;
    for (let i = 0; i < 3; i++) {
      const declined = await client.callTool({
        name: "ask_docs",
        arguments: { question: "What is the weather?" },
      });
      expect(declined.isError).toBeFalsy();
      expect(declined.structuredContent).toMatchObject({ declined: true, remaining: 1 });
    }
    client.app.switches.offTopic = false;
    const answered = await client.callTool({ name: "ask_docs", arguments: { question: QUESTION } });
    expect(answered.structuredContent).toMatchObject({ declined: false, remaining: 0 });
    await client.close();
  });

  test("a malformed payment is a payment-required result naming why, not a protocol error", async () => {
    const client = await connect("198.51.100.63");
    await client.callTool({ name: "ask_docs", arguments: { question: QUESTION } });
    const result = await client.callTool({
      name: "ask_docs",
      arguments: { question: QUESTION },
      _meta: { "x402/payment": { x402Version: 2, nonsense: true } },
    });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as unknown as PaymentRequired).error).toContain(
      "exact-payload-malformed",
    );
    await client.close();
  });
});
