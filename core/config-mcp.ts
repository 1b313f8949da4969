/**
 * What the MCP endpoint's tools cost, as the docs owner configures it: MCP_TOOL_PRICES is a
 * list of `tool=questions` (e.g. "ask_docs=1,search_docs=0"); a tool's price is the number of
 * questions one call takes from the client's quota (the free questions first, then the paid
 * ones, 0.001 USDC each), and 0 makes it free within the protection rate limit. `ask_docs`
 * answers a question, so it always takes at least one: the chat's paywall cannot be walked
 * around through MCP. Tools left out keep their default.
 */
import type { Reader } from "./config-reader.ts";

export const MCP_TOOLS = ["search_docs", "read_page", "ask_docs"] as const;
export type McpTool = (typeof MCP_TOOLS)[number];

/** Questions per call of each tool. */
export type McpToolPrices = Readonly<Record<McpTool, number>>;

/** `ask_docs` priced like one chat question; searching and reading free. */
export const DEFAULT_MCP_TOOL_PRICES: McpToolPrices = { search_docs: 0, read_page: 0, ask_docs: 1 };

/** One call may cost at most this many questions (0.10 USDC). */
export const MAX_TOOL_QUESTIONS = 100;

export const isTool = (name: string): name is McpTool => (MCP_TOOLS as ReadonlyArray<string>).includes(name);

/** Why `questions` is no price for `tool`, or undefined when it is one. */
export const toolPriceProblem = (tool: McpTool, questions: number): string | undefined => {
  const least = tool === "ask_docs" ? 1 : 0;
  return Number.isInteger(questions) && questions >= least && questions <= MAX_TOOL_QUESTIONS
    ? undefined
    : `${tool} must cost from ${least} to ${MAX_TOOL_QUESTIONS} questions (got ${questions})`;
};

export const parseMcpToolPrices = (read: Reader): McpToolPrices => {
  const value = read.text("MCP_TOOL_PRICES");
  if (value === undefined) return DEFAULT_MCP_TOOL_PRICES;
  const prices: Record<McpTool, number> = { ...DEFAULT_MCP_TOOL_PRICES };
  for (const entry of value.split(",").map((part) => part.trim())) {
    const match = /^([a-z_]+)\s*=\s*(\d{1,3})$/.exec(entry);
    const tool = match?.[1];
    const questions = Number(match?.[2]);
    if (match === null || tool === undefined || !isTool(tool)) {
      read.problems.push(
        `MCP_TOOL_PRICES: "${entry}" is not tool=questions with a tool of ${MCP_TOOLS.join(", ")}`,
      );
      continue;
    }
    const problem = toolPriceProblem(tool, questions);
    if (problem !== undefined) {
      read.problems.push(`MCP_TOOL_PRICES: ${problem}`);
      continue;
    }
    prices[tool] = questions;
  }
  return prices;
};
