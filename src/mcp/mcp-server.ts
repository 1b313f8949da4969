/**
 * The docs as MCP tools for coding agents, on the official SDK (`McpServer`): `search_docs`
 * (the best passages, free within the protection limit) and `ask_docs` (the same answer as
 * POST /api/chat: retrieval, a decline when the docs do not cover it, free when declined; the
 * client's free questions first, then paid over x402, mcp-payment.ts). One server per request:
 * the endpoint is stateless, and each request's client identity comes from the edge.
 */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Effect } from "effect";
import { z } from "zod";
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { Retriever } from "../../core/ports/retrieval.ts";
import { askQuestion } from "../../core/use-cases/ask-question.ts";
import type { InsightsRecorder } from "../hono-kit/insights-recorder.ts";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";
import type { Logger } from "../observability/log.ts";
import { linkedWallet, linkPayer } from "../payments/sign-in/payer-link.ts";
import {
  buyWithPayload,
  errorResult,
  type McpPaymentDeps,
  offerPayment,
  PAYMENT_META,
  PAYMENT_RESPONSE_META,
  refusedResult,
} from "./mcp-payment.ts";
import { MAX_PAGE_CHARS, readPage } from "./read-page.ts";

export const ASK_DOCS_TOOL = "ask_docs";
export const MCP_SERVER_INFO = { name: "docs-chat", version: "0.1.0" } as const;
const MAX_QUESTION = 2000;

const sourceOf = (chunk: RetrievedChunk, index: number) => ({
  number: index + 1,
  title: chunk.title,
  heading: chunk.heading ?? "",
  url: chunk.url ?? "",
  source: chunk.source,
});

const SourceShape = z.object({
  number: z.number(),
  title: z.string(),
  heading: z.string(),
  url: z.string(),
  source: z.string(),
});

/** ask_docs's input and output, as registered and as the discovery manifest describes them. */
export const ASK_DOCS_INPUT = {
  question: z.string().min(1).max(MAX_QUESTION).describe("The question, in plain words."),
};
export const ASK_DOCS_OUTPUT = {
  answer: z.string(),
  declined: z.boolean(),
  sources: z.array(SourceShape),
  remaining: z.number().describe("Questions left today for this client (free and paid)."),
};

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

export interface McpRequestContext extends McpPaymentDeps {
  readonly runtime: AppRuntime;
  readonly identity: string;
  readonly log: Logger;
  /** The owner's insights: MCP questions and payments count as their own channel. */
  readonly recorder: InsightsRecorder;
}

export const createMcpServer = (context: McpRequestContext) => {
  const server = new McpServer(MCP_SERVER_INFO);
  const { runtime, identity, log } = context;

  server.registerTool(
    "search_docs",
    {
      title: "Search the documentation",
      description:
        "Finds the passages of this documentation that best match a question or keywords: title, section, URL and a snippet of each, best first. Free. Use it to find where something is documented; use ask_docs for an answer with citations.",
      inputSchema: {
        query: z.string().min(1).max(MAX_QUESTION).describe("A question or keywords, in plain words."),
        limit: z.number().int().min(1).max(10).optional().describe("How many passages (default 5)."),
      },
      outputSchema: { results: z.array(SourceShape.extend({ snippet: z.string() })) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit }) => {
      const found = await runOutcome(
        runtime,
        Effect.flatMap(Retriever, (retriever) => retriever.retrieve(query, limit ?? 5)),
      );
      if (!found.ok)
        return errorResult("Documentation search is temporarily unavailable. Try again shortly.");
      const results = found.value.chunks.map((chunk, index) => ({
        ...sourceOf(chunk, index),
        snippet: chunk.text.slice(0, 400),
      }));
      return {
        structuredContent: { results },
        content: [
          {
            type: "text" as const,
            text: results
              .map((r) => `[${r.number}] ${r.title} › ${r.heading} ${r.url}\n${r.snippet}`)
              .join("\n\n"),
          },
        ],
      };
    },
  );

  server.registerTool(
    "read_page",
    {
      title: "Read a page of the documentation",
      description:
        "Returns one page of this documentation in full (title, sections with their headings and URLs, text), or one section when the URL has its #anchor. Give the url (or source) of a search_docs or ask_docs result. Free.",
      inputSchema: {
        page: z
          .string()
          .min(1)
          .max(2000)
          .describe("A page's URL (with #anchor for one section) or its source path."),
      },
      outputSchema: {
        title: z.string(),
        url: z.string(),
        source: z.string(),
        sections: z.array(z.object({ heading: z.string(), url: z.string(), text: z.string() })),
        truncated: z.boolean().describe(`True when the page was cut at ${MAX_PAGE_CHARS} characters.`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ page }) => {
      const read = await readPage(runtime, page);
      if (read === "unavailable")
        return errorResult("The documentation index is temporarily unavailable. Try again shortly.");
      if (read === "unknown")
        return errorResult(`No page of these docs is ${page}: give a url or source from search_docs.`);
      const text = [
        `# ${read.title}${read.url ? ` (${read.url})` : ""}`,
        ...read.sections.map((s) => `${s.heading ? `## ${s.heading}\n` : ""}${s.text}`),
        ...(read.truncated ? [`[cut at ${MAX_PAGE_CHARS} characters]`] : []),
      ].join("\n\n");
      return { structuredContent: { ...read }, content: [{ type: "text" as const, text }] };
    },
  );

  server.registerTool(
    ASK_DOCS_TOOL,
    {
      title: "Ask the documentation",
      description:
        'Answers a question from this documentation only, with numbered citations [n] and the source URLs. Says so (and costs nothing) when the docs do not cover it. Each client has a few free questions a day; then a result with isError and an x402 PaymentRequired asks for payment: sign it and call again with the PaymentPayload in _meta["x402/payment"] (0.01 USDC buys 10 questions).',
      inputSchema: ASK_DOCS_INPUT,
      outputSchema: ASK_DOCS_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ question }, extra) => {
      const started = performance.now();
      const payload = extra._meta?.[PAYMENT_META];
      const bought =
        payload === undefined ? undefined : await buyWithPayload(context, payload, identity, log);
      if (bought !== undefined && !bought.ok) return refusedResult(context, bought.refusal);
      if (bought?.ok === true)
        context.recorder.paid(log, {
          identity,
          units: bought.units,
          queries: bought.queries,
          dialect: "x402-mcp",
        });
      // What the call just bought is spent first, else the wallet this client paid with before.
      const payer = bought?.ok === true ? bought.payer : undefined;
      if (payer !== undefined) await runOutcome(runtime, linkPayer(identity, payer));
      const asked = await runOutcome(
        runtime,
        Effect.flatMap(payer === undefined ? linkedWallet(identity) : Effect.succeed(payer), (wallet) =>
          askQuestion({ identity, wallet, message: question, conversationId: undefined }),
        ),
        extra.signal,
      );
      if (!asked.ok) {
        const error = asked.error;
        if (error._tag === "QuotaExhausted") return offerPayment(context, "Free questions used up for today");
        if (error._tag === "EmptyMessage" || error._tag === "MessageTooLong")
          return errorResult(`The question is empty or longer than ${MAX_QUESTION} characters.`);
        if (error._tag === "PaidDailyCapReached")
          return errorResult(
            "The daily limit of paid questions is reached; credits stay available after 00:00 UTC.",
          );
        return errorResult(
          "The docs assistant is temporarily unavailable; nothing was charged. Try again shortly.",
        );
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
      return {
        structuredContent: {
          answer: answer.text,
          declined: answer.declined === true,
          sources: cited,
          remaining: rateLimit.remaining,
        },
        content: [{ type: "text" as const, text: answerText(answer.text, cited) }],
        ...(bought?.ok === true ? { _meta: { [PAYMENT_RESPONSE_META]: bought.settlement } } : {}),
      };
    },
  );
  return server;
};
