import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { ChatTurn } from "./generator.ts";

/** Recent turns per conversation, kept server-side and bounded. */
export class Conversations extends Context.Service<
  Conversations,
  {
    readonly recent: (conversationId: string) => Effect.Effect<ReadonlyArray<ChatTurn>>;
    readonly append: (conversationId: string, turns: ReadonlyArray<ChatTurn>) => Effect.Effect<void>;
  }
>()("core/Conversations") {}
