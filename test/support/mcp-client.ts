/** An app served on loopback with every request from one address, and the official MCP SDK client connected to its /mcp. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { TestApp } from "./test-app.ts";

export type ToolResult = Awaited<ReturnType<Client["callTool"]>>;
export const textOf = (result: ToolResult) => (result.content as Array<{ text: string }>)[0]?.text ?? "";

/**
 * Serves `app` as if every request came from `from`, the client sending `headers` on every
 * request of the transport; the server is stopped by `servers`' owner.
 */
export const connectMcp = async (
  app: TestApp,
  from: string,
  servers: Array<ReturnType<typeof Bun.serve>>,
  headers: Readonly<Record<string, string>> = {},
): Promise<Client & { readonly app: TestApp }> => {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => app.app.fetch(request, { remoteAddress: from }),
  });
  servers.push(server);
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
      requestInit: { headers: { ...headers } },
    }),
  );
  return Object.assign(client, { app });
};
