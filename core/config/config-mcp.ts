/**
 * What the MCP endpoint's tools cost, as the docs owner configures it: MCP_TOOL_PRICES is a
 * list of `tool=questions` (e.g. "ask_docs=1,search_docs=0"); a tool's price is the number of
 * questions one call takes from the client's quota (the free questions first, then the paid
 * ones, 0.001 USDC each), and 0 makes it free within the protection rate limit. `ask_docs`
 * answers a question, so it always takes at least one: the chat's paywall cannot be walked
 * around through MCP. Tools left out keep their default.
 */
export const MCP_TOOLS = ["search_docs", "read_page", "ask_docs"] as const;
export type McpTool = (typeof MCP_TOOLS)[number];

/** Questions per call of each tool. */
export type McpToolPrices = Readonly<Record<McpTool, number>>;

/** `ask_docs` priced like one chat question; searching and reading free. */
export const DEFAULT_MCP_TOOL_PRICES: McpToolPrices = { search_docs: 0, read_page: 0, ask_docs: 1 };

/** One call may cost at most this many questions (0.10 USDC). */
export const MAX_TOOL_QUESTIONS = 100;
