/**
 * Recent turns per conversation, kept by the store (so a follow-up that reaches another
 * instance keeps its history) and bounded on every axis, so a client cannot grow it: turns per
 * conversation, conversations in all (least recently used go first), idle time, and characters
 * per turn and per key. Losing it costs follow-up context, never money.
 */
import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import { CEILINGS } from "../ceilings/ceilings.ts";
import type { ChatTurn } from "./generator.ts";
import type { StoreUnavailable } from "./store-errors.ts";

export interface ConversationLimits {
  /** Turns kept per conversation (a question and its answer are two). */
  readonly maxTurns: number;
  /** Conversations kept; the least recently used is dropped first. */
  readonly maxConversations: number;
  /** A conversation untouched this long is forgotten. */
  readonly idleTtlMs: number;
  /** Characters kept per turn. */
  readonly maxContentChars: number;
  /** Longer conversation keys are not stored at all. */
  readonly maxKeyChars: number;
}

/** The cap in all is the table's (core/ceilings/ceilings.ts): 10,000 x 6 x 4,000 characters at most. */
export const CONVERSATION_LIMITS: ConversationLimits = {
  maxTurns: 6,
  maxConversations: CEILINGS.conversations.limit.default,
  idleTtlMs: 30 * 60 * 1000,
  maxContentChars: 4000,
  maxKeyChars: 512,
};

/** The turns a store keeps of `turns`: the two chat roles only, each cut to the size limit. */
export const keptTurns = (turns: ReadonlyArray<ChatTurn>, limits: ConversationLimits): ChatTurn[] =>
  turns.flatMap((turn) =>
    turn.role === "user" || turn.role === "assistant"
      ? [{ role: turn.role, content: turn.content.slice(0, limits.maxContentChars) }]
      : [],
  );

export class Conversations extends Context.Service<
  Conversations,
  {
    readonly recent: (conversationId: string) => Effect.Effect<ReadonlyArray<ChatTurn>, StoreUnavailable>;
    readonly append: (
      conversationId: string,
      turns: ReadonlyArray<ChatTurn>,
    ) => Effect.Effect<void, StoreUnavailable>;
  }
>()("core/Conversations") {}
