/**
 * Recent conversation turns in process memory, within the limits of core/ports/conversations.ts.
 * Restarting forgets everything, which only costs follow-up context, never money.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import {
  CONVERSATION_LIMITS,
  type ConversationLimits,
  Conversations,
  keptTurns,
} from "../../core/ports/conversations.ts";
import type { ChatTurn } from "../../core/ports/generator.ts";

interface Entry {
  readonly turns: ReadonlyArray<ChatTurn>;
  readonly touchedAt: number;
}

/** One store; its state lives as long as the value. */
export const makeMemoryConversations = (options: Partial<ConversationLimits> = {}) => {
  const limits = { ...CONVERSATION_LIMITS, ...options };
  // A Map iterates in insertion order: re-inserting on use keeps the oldest first.
  const entries = new Map<string, Entry>();
  const live = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry !== undefined && now - entry.touchedAt >= limits.idleTtlMs) entries.delete(key);
    return entries.get(key);
  };
  const sweep = (now: number) => {
    for (const [key, entry] of entries) {
      if (now - entry.touchedAt < limits.idleTtlMs) break; // the rest were touched later
      entries.delete(key);
    }
  };
  return Conversations.of({
    recent: (conversationId) =>
      Effect.map(Clock.currentTimeMillis, (now) =>
        conversationId.length > limits.maxKeyChars ? [] : (live(conversationId, now)?.turns ?? []),
      ),
    append: (conversationId, turns) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        if (conversationId.length > limits.maxKeyChars || limits.maxTurns <= 0) return;
        sweep(now);
        const previous = live(conversationId, now)?.turns ?? [];
        entries.delete(conversationId);
        entries.set(conversationId, {
          turns: [...previous, ...keptTurns(turns, limits)].slice(-limits.maxTurns),
          touchedAt: now,
        });
        while (entries.size > limits.maxConversations) {
          const oldest = entries.keys().next();
          if (oldest.done === true) break;
          entries.delete(oldest.value);
        }
      }),
  });
};
