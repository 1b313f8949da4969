/**
 * The MCP tools' input and output shapes, as the server registers them and as the discovery
 * manifest describes the paid ones (one definition for both, so they cannot drift).
 */
import { z } from "zod";
import { MAX_PAGE_CHARS } from "./mcp-read-page.ts";

export const MAX_QUESTION = 2000;

export const SourceShape = z.object({
  number: z.number(),
  title: z.string(),
  heading: z.string(),
  url: z.string(),
  source: z.string(),
});

export const SEARCH_DOCS_INPUT = {
  query: z.string().min(1).max(MAX_QUESTION).describe("A question or keywords, in plain words."),
  limit: z.number().int().min(1).max(10).optional().describe("How many passages (default 5)."),
};
export const SEARCH_DOCS_OUTPUT = { results: z.array(SourceShape.extend({ snippet: z.string() })) };

export const READ_PAGE_INPUT = {
  page: z
    .string()
    .min(1)
    .max(2000)
    .describe("A page's URL (with #anchor for one section) or its source path."),
};
export const READ_PAGE_OUTPUT = {
  title: z.string(),
  url: z.string(),
  source: z.string(),
  sections: z.array(z.object({ heading: z.string(), url: z.string(), text: z.string() })),
  truncated: z.boolean().describe(`True when the page was cut at ${MAX_PAGE_CHARS} characters.`),
};

export const ASK_DOCS_INPUT = {
  question: z.string().min(1).max(MAX_QUESTION).describe("The question, in plain words."),
};
export const ASK_DOCS_OUTPUT = {
  answer: z.string(),
  declined: z.boolean(),
  sources: z.array(SourceShape),
  remaining: z.number().describe("Questions left today for this client (free and paid)."),
};

/** Each tool's shapes, by name. */
export const TOOL_SCHEMAS = {
  search_docs: { input: SEARCH_DOCS_INPUT, output: SEARCH_DOCS_OUTPUT },
  read_page: { input: READ_PAGE_INPUT, output: READ_PAGE_OUTPUT },
  ask_docs: { input: ASK_DOCS_INPUT, output: ASK_DOCS_OUTPUT },
} as const;
