/** The MCP endpoint's paid tools as the discovery manifest lists them (x402's well-known discovery). */
import { z } from "zod";
import { ASK_DOCS_RESOURCE } from "../payments/priced-resources.ts";
import type { DiscoveryEntry } from "../payments/v2/discovery.ts";
import { ASK_DOCS_INPUT, ASK_DOCS_OUTPUT, ASK_DOCS_TOOL } from "./mcp-server.ts";

/** Each paid tool of /mcp, with the JSON Schemas the MCP server lists for it. */
export const mcpDiscoveryEntries = (path: string): ReadonlyArray<DiscoveryEntry> => [
  {
    priced: ASK_DOCS_RESOURCE,
    type: "mcp",
    path,
    input: {
      toolName: ASK_DOCS_TOOL,
      transport: "streamable-http",
      inputSchema: z.toJSONSchema(z.object(ASK_DOCS_INPUT)),
    },
    output: { mimeType: "application/json", schema: z.toJSONSchema(z.object(ASK_DOCS_OUTPUT)) },
  },
];
