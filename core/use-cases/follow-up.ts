/**
 * Follow-up questions ("and how do I delete it?") retrieve badly on their own. Without an
 * LLM round-trip (which would double latency) we rewrite them cheaply: a short question that
 * leans on pronouns or starts with a connective is searched together with the previous
 * user question, so the topic carries over.
 */
import type { ChatTurn } from "../ports/generator.ts";

const DEPENDENT =
  /^(and|or|but|also|what about|how about|then|so)\b|\b(it|its|this|that|these|those|they|them|one)\b/i;

/** The text to retrieve with: the message, plus the previous user question when it depends on it. */
export const followUpQuery = (message: string, history: ReadonlyArray<ChatTurn>): string => {
  const previous = history.findLast((turn) => turn.role === "user");
  if (previous === undefined) return message;
  const words = message.split(/\s+/).filter((word) => word !== "").length;
  return words <= 12 && DEPENDENT.test(message) ? `${previous.content}\n${message}` : message;
};
