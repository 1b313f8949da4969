/** The MCP endpoint's paid tools as the discovery manifest lists them (x402's well-known discovery). */
import { z } from "zod";
import { MCP_TOOLS, type McpToolPrices } from "../../core/config/config-mcp.ts";
import { mcpToolResource } from "../payments/priced-resources.ts";
import type { DiscoveryEntry } from "../payments/v2/discovery.ts";
import { TOOL_EXAMPLES } from "./tool-examples.ts";
import { TOOL_SCHEMAS } from "./tool-schemas.ts";

/** Each tool of /mcp that has a price, with the JSON Schemas the MCP server lists for it; free tools are not listed. */
export const mcpDiscoveryEntries = (
  path: string,
  prices: McpToolPrices,
  unitsPerQuery: bigint,
): ReadonlyArray<DiscoveryEntry> =>
  MCP_TOOLS.filter((tool) => prices[tool] > 0).map((tool) => ({
    priced: mcpToolResource(tool, prices[tool], unitsPerQuery),
    type: "mcp",
    path,
    input: {
      toolName: tool,
      transport: "streamable-http",
      inputSchema: z.toJSONSchema(z.object(TOOL_SCHEMAS[tool].input)),
    },
    output: { mimeType: "application/json", schema: z.toJSONSchema(z.object(TOOL_SCHEMAS[tool].output)) },
    example: TOOL_EXAMPLES[tool],
  }));
