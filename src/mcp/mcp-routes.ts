/**
 * POST /mcp: the MCP endpoint (Streamable HTTP, stateless, JSON responses) behind the edge, so
 * its calls have the client identity, protection limit and access log of every other route.
 */
import { Hono } from "hono";
import type { McpToolPrices } from "../../core/config/config-mcp.ts";
import type { AppEnv } from "../hono-kit/app-env.ts";
import type { InsightsRecorder } from "../hono-kit/insights-recorder.ts";
import type { AppRuntime } from "../hono-kit/run-effect.ts";
import type { CreditDialect } from "../payments/server/dialect.ts";
import type { ExactFacilitator } from "../payments/v2/exact-payment.ts";
import type { WalletAccessDeps } from "../sign-in/wallet-access.ts";
import { transportCredentials } from "./mcp-sign-in.ts";

export interface McpDeps {
  readonly runtime: AppRuntime;
  readonly facilitator: ExactFacilitator | undefined;
  /** The ways to buy queries (x402 v2 only is reachable from MCP's `_meta`). */
  readonly dialects: ReadonlyArray<CreditDialect>;
  readonly recorder: InsightsRecorder;
  /** Questions each tool call takes (MCP_TOOL_PRICES). */
  readonly prices: McpToolPrices;
  /** The price of a question in USDC base units (PaymentTerms.unitsPerQuery). */
  readonly unitsPerQuery: bigint;
  /** Sessions and sign-in: whose credits a priced tool spends (the chat's, with its ceilings). */
  readonly access: WalletAccessDeps;
}

/**
 * The MCP SDK and our server on it, loaded by the first MCP request: a service no agent calls
 * does not hold them (6 to 8 MB of RSS on Bun and on Deno, docs/performance.md). The runtime
 * keeps loaded modules, so later requests get them at once.
 */
const loadMcp = () =>
  Promise.all([
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("./mcp-server.ts"),
  ]).then(([{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }]) => ({
    WebStandardStreamableHTTPServerTransport,
    createMcpServer,
  }));

export const mcpRoutes = (deps: McpDeps) =>
  new Hono<AppEnv>().post("/", async (c) => {
    const { WebStandardStreamableHTTPServerTransport, createMcpServer } = await loadMcp();
    // Stateless: a server and transport per request, as the SDK's stateless mode wants.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createMcpServer({
      ...deps,
      // The path as asked (`/sites/<id>/mcp` on the service's names): the site's own endpoint.
      url: new URL(c.req.url).origin + c.env.basePath + c.req.path,
      identity: c.env.identity,
      log: c.env.log,
      signIn: deps.access.signIn,
      credentials: transportCredentials(c.req.raw.headers),
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
