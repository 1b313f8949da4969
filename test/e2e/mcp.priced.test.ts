/**
 * MCP tools at the prices the owner configures (MCP_TOOL_PRICES), with the official MCP SDK
 * client on the real app and a real local chain, on the memory store and on two instances
 * sharing a real Redis: a priced search takes its questions (a miss is free), too few left gets
 * a payment-required result without spending what is left, the payment is settled once and
 * credited where every instance sees it, the same payload on the other instance is refused, a
 * free tool stays free, and the discovery manifest lists exactly the priced tools.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PaymentRequired } from "@x402/core/types";
import type { McpToolPrices } from "../../core/config/config-mcp.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { connectMcp, textOf } from "../support/mcp-client.ts";
import { balancesOf, movedSince, ONE_PAYMENT } from "../support/money-moved.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestAppOptions, testApps } from "../support/test-app.ts";
import { officialClient, startChainWithFacilitator } from "../support/x402-v2.ts";

const PRICES: McpToolPrices = { search_docs: 2, read_page: 0, ask_docs: 1 };
let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const servers: Array<ReturnType<typeof Bun.serve>> = [];
const build = testApps(afterAll);
const shared = useRedisServer();
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(async () => {
  for (const server of servers) await server.stop(true);
  await chain?.stop();
});

/** One free question a day, as the Redis pair is built. */
const onChain = (options: TestAppOptions = {}) =>
  build({
    freeQueries: 1,
    mcpToolPrices: PRICES,
    ...(facilitator === undefined ? {} : { facilitator }),
    chain: chainReaderOf(chain),
    ...options,
  });

/** Two apps serving one client: the same app on memory, two instances sharing Redis. */
const STORES = [
  ["memory", () => [onChain(), undefined] as const],
  [
    "two instances on Redis",
    () => twoOnRedis(shared.redis.url, "mcp-priced:", (store) => onChain({ store })),
  ],
] as const;

const remainingOf = async (app: ReturnType<typeof onChain>, from: string) =>
  ((await (await app.call("/api/status", {}, from)).json()) as { remaining: number }).remaining;

describe.each(STORES)("priced MCP tools (%s)", (_name, apps) => {
  test("a search priced at two questions: too few left is an offer, paid once, seen by every instance; a miss is free", async () => {
    const [firstApp, secondApp = firstApp] = apps();
    const from = "198.51.100.90";
    const first = await connectMcp(firstApp, from, servers);
    const second = await connectMcp(secondApp, from, servers);

    const { tools } = await first.listTools();
    const described = Object.fromEntries(tools.map((tool) => [tool.name, tool.description ?? ""]));
    expect(described.search_docs).toContain("takes 2 questions");
    expect(described.read_page).toContain("Free.");
    expect(described.ask_docs).toContain("takes one question");

    // One question left, the search costs two: an offer, and the one left is still there.
    const offered = await first.callTool({ name: "search_docs", arguments: { query: "write a file" } });
    expect(offered.isError).toBe(true);
    const required = offered.structuredContent as unknown as PaymentRequired;
    expect(JSON.parse(textOf(offered))).toEqual(required);
    expect(required.accepts[0]).toMatchObject({
      amount: "10000",
      asset: chain.mint,
      payTo: chain.serviceWallet,
    });
    expect(required.resource.description).toContain("search_docs takes 2 questions per call");
    expect(await remainingOf(secondApp, from)).toBe(1);

    const payer = await chain.fundPayer();
    const before = await balancesOf(chain, payer.address);
    const payload = await officialClient({
      signer: payer,
      rpcUrl: chain.url,
      mint: chain.mint,
    }).createPaymentPayload(required);
    const paid = await first.callTool({
      name: "search_docs",
      arguments: { query: "write a file", limit: 2 },
      _meta: { "x402/payment": payload },
    });
    expect(paid.isError).toBeFalsy();
    expect((paid.structuredContent as { results: unknown[] }).results).toHaveLength(2);
    expect((paid._meta as Record<string, { success: boolean }>)["x402/payment-response"]?.success).toBe(true);
    // 1 free + 10 bought - 2 for the search, read on the other instance.
    expect(await remainingOf(secondApp, from)).toBe(9);
    expect(await movedSince(chain, payer.address, before)).toEqual(ONE_PAYMENT);

    // The same payload on the other instance: refused, nothing moves, nothing credited.
    const again = await second.callTool({
      name: "search_docs",
      arguments: { query: "write a file" },
      _meta: { "x402/payment": payload },
    });
    expect(again.isError).toBe(true);
    expect((again.structuredContent as unknown as PaymentRequired).error).toContain("payment-already-used");
    expect(await movedSince(chain, payer.address, before)).toEqual(ONE_PAYMENT);
    expect(await remainingOf(firstApp, from)).toBe(9);

    // Nothing found: nothing held, nothing counted.
    firstApp.switches.noResults = true;
    const miss = await first.callTool({ name: "search_docs", arguments: { query: "write a file" } });
    firstApp.switches.noResults = false;
    expect(miss.isError).toBeFalsy();
    expect(await remainingOf(secondApp, from)).toBe(9);

    // A free tool costs nothing; a priced one called twice at once on both instances takes 4.
    const page = await second.callTool({ name: "read_page", arguments: { page: "guide/files.md" } });
    expect(page.isError === true && textOf(page).includes("temporarily")).toBe(false);
    const both = await Promise.all([
      first.callTool({ name: "search_docs", arguments: { query: "write a file" } }),
      second.callTool({ name: "search_docs", arguments: { query: "write a file" } }),
    ]);
    expect(both.every((result) => !result.isError)).toBe(true);
    expect(await remainingOf(firstApp, from)).toBe(5);
    // ask_docs at its default price, answered from the same credits on the other instance.
    const asked = await second.callTool({
      name: "ask_docs",
      arguments: { question: "How do I write a file?" },
    });
    expect(asked.isError).toBeFalsy();
    expect((asked.structuredContent as { remaining: number }).remaining).toBe(4);
    await first.close();
    await second.close();
  });
});

describe("the discovery manifest follows MCP_TOOL_PRICES", () => {
  test("exactly the priced tools are listed, each at the price of its offer", async () => {
    const app = onChain({ mcpToolPrices: { search_docs: 20, read_page: 0, ask_docs: 1 } });
    const manifest = (await (await app.call("/.well-known/x402.json")).json()) as {
      items: Array<{ type: string; input: { toolName?: string }; accepts: Array<{ amount: string }> }>;
    };
    const tools = manifest.items
      .filter((item) => item.type === "mcp")
      .map((item) => [item.input.toolName, item.accepts[0]?.amount]);
    // 20 questions cost 0.02 USDC; ask_docs's one question is sold in the smallest purchase.
    expect(tools).toEqual([
      ["search_docs", "20000"],
      ["ask_docs", "10000"],
    ]);
  });
});
