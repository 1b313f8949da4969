/**
 * The docs as MCP tools for coding agents, on the official SDK (`McpServer`): `search_docs`
 * (the best passages), `read_page` (one page or section in full) and `ask_docs` (the same
 * answer as POST /api/chat: retrieval, a decline when the docs do not cover it, free when
 * declined). Each runs at the price MCP_TOOL_PRICES gives it (tool-price.ts): by default
 * `ask_docs` takes one question (the client's free ones first, then paid over x402) and the
 * others are free within the protection limit. One server per request: the endpoint is
 * stateless, and each request's client identity comes from the edge.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as Effect from "effect/Effect";
import { RetrievalAsker, type RetrievedChunk, Retriever } from "../../core/ports/retrieval.ts";
import { askQuestion } from "../../core/use-cases/ask-question.ts";
import { runOutcome } from "../hono-kit/run-effect.ts";
import { mcpToolResource } from "../payments/priced-resources.ts";
import { errorResult, offerPayment } from "./mcp-payment.ts";
import { MAX_PAGE_CHARS, readPage } from "./mcp-read-page.ts";
import { FREE_QUESTIONS_USED, type PricedCallContext, priceNote, underPrice } from "./tool-price.ts";
import { MAX_QUESTION, TOOL_SCHEMAS } from "./tool-schemas.ts";

export const ASK_DOCS_TOOL = "ask_docs";
export const MCP_SERVER_INFO = { name: "docs-chat", version: "0.1.0" } as const;

const sourceOf = (chunk: RetrievedChunk, index: number) => ({
  number: index + 1,
  title: chunk.title,
  heading: chunk.heading ?? "",
  url: chunk.url ?? "",
  source: chunk.source,
});

/** The answer as text an agent reads: the answer, then its numbered sources with links. */
const answerText = (text: string, sources: ReadonlyArray<ReturnType<typeof sourceOf>>) =>
  [
    text,
    "",
    "Sources:",
    ...sources.map(
      (s) => `[${s.number}] ${s.title}${s.heading ? ` › ${s.heading}` : ""}${s.url ? ` ${s.url}` : ""}`,
    ),
  ].join("\n");

/**
 * A free tool declares its output schema. A priced one cannot: its payment-required result
 * carries the x402 PaymentRequired as structured content (the MCP transport's tool-result
 * binding), and the official SDK client checks any structured content against a declared
 * schema, error or not, so an agent that listed the tools first would fail on the offer.
 * The discovery manifest still gives the answer's schema.
 */
const outputSchemaAt = <Shape>(questions: number, shape: Shape) =>
  questions === 0 ? { outputSchema: shape } : {};

/** One request's call context: who asks, the tools' prices, and how to pay and record. */
export type McpRequestContext = PricedCallContext;

export const createMcpServer = (context: McpRequestContext) => {
  const server = new McpServer(MCP_SERVER_INFO);
  const { runtime, identity, log, prices, unitsPerQuery } = context;

  server.registerTool(
    "search_docs",
    {
      title: "Search the documentation",
      description: `Finds the passages of this documentation that best match a question or keywords: title, section, URL and a snippet of each, best first. Use it to find where something is documented; use ask_docs for an answer with citations. ${priceNote(prices.search_docs, unitsPerQuery)}`,
      inputSchema: TOOL_SCHEMAS.search_docs.input,
      ...outputSchemaAt(prices.search_docs, TOOL_SCHEMAS.search_docs.output),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, limit }, extra) =>
      underPrice(context, "search_docs", extra._meta, { query, limit }, async () => {
        const found = await runOutcome(
          runtime,
          Effect.flatMap(Retriever, (retriever) => retriever.retrieve(query, limit ?? 5)).pipe(
            // A free search holds no query of the client's: a cold index loads on the listings'
            // share; a priced one holds its questions first, and loads as a question does.
            Effect.provideService(RetrievalAsker, { client: identity, question: prices.search_docs > 0 }),
          ),
        );
        if (!found.ok)
          return {
            result: errorResult("Documentation search is temporarily unavailable. Try again shortly."),
            charged: false,
          };
        const results = found.value.chunks.map((chunk, index) => ({
          ...sourceOf(chunk, index),
          snippet: chunk.text.slice(0, 400),
        }));
        const text = results.map((r) => `[${r.number}] ${r.title} › ${r.heading} ${r.url}\n${r.snippet}`);
        return {
          result: { structuredContent: { results }, content: [{ type: "text", text: text.join("\n\n") }] },
          // Nothing found costs nothing, as a declined answer.
          charged: results.length > 0,
        };
      }),
  );

  server.registerTool(
    "read_page",
    {
      title: "Read a page of the documentation",
      description: `Returns one page of this documentation in full (title, sections with their headings and URLs, text), or one section when the URL has its #anchor. Give the url (or source) of a search_docs or ask_docs result. ${priceNote(prices.read_page, unitsPerQuery)}`,
      inputSchema: TOOL_SCHEMAS.read_page.input,
      ...outputSchemaAt(prices.read_page, TOOL_SCHEMAS.read_page.output),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ page }, extra) =>
      underPrice(context, "read_page", extra._meta, { page }, async () => {
        const read = await readPage(runtime, page, { client: identity, question: prices.read_page > 0 });
        if (read === "unavailable")
          return {
            result: errorResult("The documentation index is temporarily unavailable. Try again shortly."),
            charged: false,
          };
        if (read === "unknown")
          return {
            result: errorResult(`No page of these docs is ${page}: give a url or source from search_docs.`),
            charged: false,
          };
        const text = [
          `# ${read.title}${read.url ? ` (${read.url})` : ""}`,
          ...read.sections.map((s) => `${s.heading ? `## ${s.heading}\n` : ""}${s.text}`),
          ...(read.truncated ? [`[cut at ${MAX_PAGE_CHARS} characters]`] : []),
        ].join("\n\n");
        return {
          result: { structuredContent: { ...read }, content: [{ type: "text", text }] },
          charged: true,
        };
      }),
  );

  const askPrice = mcpToolResource(ASK_DOCS_TOOL, prices.ask_docs, unitsPerQuery);
  server.registerTool(
    ASK_DOCS_TOOL,
    {
      title: "Ask the documentation",
      description: `Answers a question from this documentation only, with numbered citations [n] and the source URLs. Says so (and costs nothing) when the docs do not cover it. The structured result has answer, declined, sources (number, title, heading, url, source) and remaining (questions left today). ${priceNote(prices.ask_docs, unitsPerQuery)}`,
      inputSchema: TOOL_SCHEMAS.ask_docs.input,
      ...outputSchemaAt(prices.ask_docs, TOOL_SCHEMAS.ask_docs.output),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ question }, extra) =>
      // The chat's use case holds (and counts) one question itself; underPrice holds the rest.
      underPrice(
        context,
        ASK_DOCS_TOOL,
        extra._meta,
        { question },
        async ({ wallet, throughLink }) => {
          const started = performance.now();
          const asked = await runOutcome(
            runtime,
            askQuestion({ identity, wallet, throughLink, message: question, conversationId: undefined }),
            extra.signal,
          );
          if (!asked.ok) {
            const error = asked.error;
            const result =
              error._tag === "QuotaExhausted"
                ? await offerPayment(context, askPrice, FREE_QUESTIONS_USED)
                : error._tag === "EmptyMessage" || error._tag === "MessageTooLong"
                  ? errorResult(`The question is empty or longer than ${MAX_QUESTION} characters.`)
                  : error._tag === "PaidDailyCapReached"
                    ? errorResult(
                        "The daily limit of paid questions is reached; credits stay available after 00:00 UTC.",
                      )
                    : error._tag === "TooManyDeclines"
                      ? errorResult(
                          "Too many questions the docs do not cover today; try again after 00:00 UTC. Nothing was charged.",
                        )
                      : errorResult(
                          "The docs assistant is temporarily unavailable; nothing was charged. Try again shortly.",
                        );
            return { result, charged: false };
          }
          const { answer, sources, rateLimit } = asked.value;
          context.recorder.answered(
            log,
            {
              question: { identity, message: question, conversationId: undefined },
              outcome: asked.value.outcome,
              answer,
              answerId: undefined,
              channel: "mcp",
            },
            started,
          );
          const cited = sources.map(sourceOf);
          const declined = answer.declined === true;
          return {
            result: {
              structuredContent: {
                answer: answer.text,
                declined,
                sources: cited,
                remaining: rateLimit.remaining,
              },
              content: [{ type: "text", text: answerText(answer.text, cited) }],
            },
            charged: !declined,
          };
        },
        1,
      ),
  );
  return server;
};
