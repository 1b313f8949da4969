/**
 * Recent conversation turns in process memory, bounded on every axis so a client cannot grow
 * it: turns per conversation, conversations in all (least recently used go first), idle time,
 * and characters per turn and per key. Restarting forgets everything, which only costs
 * follow-up context, never money.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { Conversations } from "../../core/ports/conversations.ts";
import type { ChatTurn } from "../../core/ports/generator.ts";

export interface MemoryConversationsOptions {
  /** Turns kept per conversation (a question and its answer are two). Default 6. */
  readonly maxTurns?: number;
  /** Conversations kept; the least recently used is dropped first. Default 10 000. */
  readonly maxConversations?: number;
  /** A conversation untouched this long is forgotten. Default 30 minutes. */
  readonly idleTtlMs?: number;
  /** Characters kept per turn. Default 4000. */
  readonly maxContentChars?: number;
  /** Longer conversation keys are not stored at all. Default 512. */
  readonly maxKeyChars?: number;
}

export const DEFAULTS: Required<MemoryConversationsOptions> = {
  maxTurns: 6,
  maxConversations: 10_000,
  idleTtlMs: 30 * 60 * 1000,
  maxContentChars: 4000,
  maxKeyChars: 512,
};

interface Entry {
  readonly turns: ReadonlyArray<ChatTurn>;
  readonly touchedAt: number;
}

/** Builds one store; its state lives as long as the layer. */
export const make = (options: MemoryConversationsOptions = {}) =>
  Effect.sync(() => {
    const limits = { ...DEFAULTS, ...options };
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
    const clean = (turn: ChatTurn): ChatTurn | undefined =>
      turn.role === "user" || turn.role === "assistant"
        ? { role: turn.role, content: turn.content.slice(0, limits.maxContentChars) }
        : undefined;

    return Conversations.of({
      recent: (conversationId) =>
        Effect.map(Clock.currentTimeMillis, (now) =>
          conversationId.length > limits.maxKeyChars ? [] : (live(conversationId, now)?.turns ?? []),
        ),
      append: (conversationId, turns) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          if (conversationId.length > limits.maxKeyChars || limits.maxTurns <= 0) return;
          sweep(now);
          const kept = turns.map(clean).filter((turn) => turn !== undefined);
          const previous = live(conversationId, now)?.turns ?? [];
          entries.delete(conversationId);
          entries.set(conversationId, {
            turns: [...previous, ...kept].slice(-limits.maxTurns),
            touchedAt: now,
          });
          while (entries.size > limits.maxConversations) {
            const oldest = entries.keys().next();
            if (oldest.done === true) break;
            entries.delete(oldest.value);
          }
        }),
    });
  });

/** The in-memory conversation store as a layer. */
export const layer = (options: MemoryConversationsOptions = {}): Layer.Layer<Conversations> =>
  Layer.effect(Conversations, make(options));
