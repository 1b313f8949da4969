/**
 * The conversation of this tab: kept in sessionStorage (it survives reloads and navigation in
 * the tab, and ends with it; other tabs have their own), with the `conversationId` the service
 * uses to answer follow-up questions.
 */
import type { Source } from "./chat-api.ts";

export interface StoredMessage {
  readonly role: "user" | "assistant";
  text: string;
  sources?: ReadonlyArray<Source>;
  answerId?: string | undefined;
  vote?: "up" | "down" | undefined;
  /** The visitor stopped the answer before it ended. */
  stopped?: boolean;
}

export interface Conversation {
  readonly id: string;
  readonly messages: StoredMessage[];
}

/** At most this many messages are kept (the service itself keeps the last 6 turns). */
const KEPT = 60;

const fresh = (): Conversation => ({ id: crypto.randomUUID(), messages: [] });

const storage = (): Storage | undefined => {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage disabled (privacy settings): the conversation lives in memory only
  }
};

export const conversationStore = (apiUrl: string) => {
  const key = `docs-chat:${apiUrl}`;
  return {
    load: (): Conversation => {
      try {
        const stored = JSON.parse(storage()?.getItem(key) ?? "null");
        if (typeof stored?.id === "string" && Array.isArray(stored.messages)) return stored;
      } catch {
        // unreadable: start over
      }
      return fresh();
    },
    save: (conversation: Conversation) => {
      const messages = conversation.messages.slice(-KEPT);
      try {
        storage()?.setItem(key, JSON.stringify({ id: conversation.id, messages }));
      } catch {
        // full or disabled: the conversation still works in this page
      }
    },
    clear: (): Conversation => {
      storage()?.removeItem(key);
      return fresh();
    },
  };
};
