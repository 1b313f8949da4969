/** Shapes of POST /api/chat: request fields and the public form of a source. */
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { fieldTypeProblem, type JsonObject } from "./read-json.ts";

const CONVERSATION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const SNIPPET_LENGTH = 240;

export interface ChatRequest {
  readonly message: string;
  readonly conversationId: string | undefined;
  readonly stream: boolean;
}

/** Field types only; emptiness is the use case's rule (step 1 of the spec). */
export const parseChatRequest = (body: JsonObject): ChatRequest | string => {
  const problem =
    fieldTypeProblem(body, "message", "string", false) ??
    fieldTypeProblem(body, "conversationId", "string", false) ??
    fieldTypeProblem(body, "stream", "boolean", false);
  if (problem !== undefined) return problem;
  const conversationId = body.conversationId as string | undefined;
  if (conversationId !== undefined && !CONVERSATION_ID.test(conversationId)) {
    return "conversationId must be 1-128 characters of letters, digits, '_', '-', '.', ':'";
  }
  return {
    message: (body.message as string | undefined) ?? "",
    conversationId,
    stream: body.stream === true,
  };
};

const snippet = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= SNIPPET_LENGTH ? flat : `${flat.slice(0, SNIPPET_LENGTH - 1).replace(/\s\S*$/, "")}…`;
};

/** A source as the client sees it, numbered like the [n] citations. */
export const publicSource = (chunk: RetrievedChunk, index: number) => ({
  number: index + 1,
  id: chunk.id,
  title: chunk.title,
  url: chunk.url,
  source: chunk.source,
  heading: chunk.heading,
  score: Math.round(chunk.score * 10000) / 10000,
  snippet: snippet(chunk.text),
});
