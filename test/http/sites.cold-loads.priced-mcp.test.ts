/**
 * A priced MCP search (a site's mcpToolPrices) holds the client's questions before it runs, so a
 * cold index it needs loads as a question's does, on the whole of cold-index-loads; a free search
 * loads only on the listings' share (half the minute's budget, rounded down). The clock is the test's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { QUESTIONS, sampleSites } from "../support/hosted-sites.ts";
import { buildSitesApp, type SitesService } from "../support/sites-app.ts";

const MINUTE = 60_000;
const clock = Math.floor(Date.now() / MINUTE) * MINUTE + 10_000;
// alpha prices a search at one question; beta and gamma search for free.
const SEARCH_PRICE = { alpha: 1, beta: 0, gamma: 0 };
const { defaultDocs, sites } = sampleSites(["alpha", "beta", "gamma"], (id) => ({
  mcpToolPrices: { search_docs: SEARCH_PRICE[id], read_page: 0, ask_docs: 1 },
}));

let service: SitesService;
let server: ReturnType<typeof Bun.serve>;
const AGENT = "198.51.100.120";
beforeAll(async () => {
  service = await buildSitesApp({
    sites,
    defaultDocs,
    // Two loads a minute: listings (and free searches) may start one.
    ceilings: { "cold-index-loads": 2, "cold-index-loads-per-client": 3 },
    now: () => clock,
  });
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => service.app.fetch(request, { remoteAddress: AGENT }),
  });
});
afterAll(async () => {
  server.stop(true);
  await service.dispose();
});

const search = async (id: string, query: string) => {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/sites/${id}/mcp`)),
  );
  try {
    const result = await client.callTool({ name: "search_docs", arguments: { query } });
    return { isError: result.isError === true, text: (result.content as Array<{ text: string }>)[0]?.text };
  } finally {
    await client.close();
  }
};

describe("cold index loads and priced MCP tools", () => {
  test("past the listings' share a free search is refused, a priced one loads as a question", async () => {
    // Another address's listing takes the listings' one load of the minute.
    expect((await service.call("/sites/gamma/llms.txt", {}, "203.0.113.90")).status).toBe(200);
    const free = await search("beta", QUESTIONS.beta);
    expect(free).toEqual({
      isError: true,
      text: "Documentation search is temporarily unavailable. Try again shortly.",
    });
    const priced = await search("alpha", QUESTIONS.alpha);
    expect(priced.isError).toBe(false);
    expect(priced.text).toContain("Zorblax");
  });
});
