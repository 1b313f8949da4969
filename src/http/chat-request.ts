/** Shapes of POST /api/chat: request fields and the public form of a source. */

import type { Context } from "hono";
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import type { AppEnv } from "../hono-kit/app-env.ts";
import { readBody } from "../hono-kit/read-json.ts";
import { ChatRequest, LOCALE_PATTERN } from "./schemas/requests.ts";

const SNIPPET_LENGTH = 240;

/** The first language of an Accept-Language header ("de-CH,de;q=0.9" -> "de-CH"), if any. */
const acceptedLanguage = (header: string | undefined): string | undefined => {
  const first = header?.split(",")[0]?.split(";")[0]?.trim();
  return first !== undefined && LOCALE_PATTERN.test(first) ? first : undefined;
};

/** The chat request, decoded; field types only (emptiness is the use case's rule, step 1 of the spec). */
export const decodeChatRequest = async (c: Context<AppEnv>) => {
  const decoded = await readBody(c, ChatRequest, ([first]) =>
    c.json({ success: false, error: first ?? "Invalid chat request", code: "INVALID_REQUEST" }, 400),
  );
  if (!decoded.ok) return decoded;
  const { message = "", conversationId, stream = false } = decoded.value;
  const locale = decoded.value.locale ?? acceptedLanguage(c.req.header("accept-language"));
  return { ok: true as const, value: { message, conversationId, stream, locale } };
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
