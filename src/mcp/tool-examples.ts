/** A call of each MCP tool and its structured result, as catalogues show them (bazaar); valid against TOOL_SCHEMAS. */
import type { McpTool } from "../../core/config/config-mcp.ts";

const SOURCE = {
  number: 1,
  title: "Installation",
  heading: "Installation > Requirements",
  url: "https://docs.example.com/install#requirements",
  source: "install.md",
};

export const TOOL_EXAMPLES: Readonly<
  Record<McpTool, { readonly input: Readonly<Record<string, unknown>>; readonly output: unknown }>
> = {
  search_docs: {
    input: { query: "install requirements", limit: 1 },
    output: { results: [{ ...SOURCE, snippet: "Node 20 or later is required." }] },
  },
  read_page: {
    input: { page: "install.md" },
    output: {
      title: "Installation",
      url: "https://docs.example.com/install",
      source: "install.md",
      sections: [{ heading: "Requirements", url: SOURCE.url, text: "Node 20 or later is required." }],
      truncated: false,
    },
  },
  ask_docs: {
    input: { question: "Which Node version do I need?" },
    output: { answer: "Node 20 or later [1].", declined: false, sources: [SOURCE], remaining: 9 },
  },
};
