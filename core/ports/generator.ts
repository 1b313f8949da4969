import { Context, type Effect, Schema, type Stream } from "effect";
import type { RetrievedChunk } from "./retrieval.ts";

export interface ChatTurn {
  readonly role: "user" | "assistant";
  readonly content: string;
}

export interface GenerationInput {
  readonly question: string;
  /** Numbered [1]..[n] in this order. */
  readonly chunks: ReadonlyArray<RetrievedChunk>;
  /** Earlier turns of the conversation (never system messages). */
  readonly history: ReadonlyArray<ChatTurn>;
}

export interface Answer {
  readonly text: string;
  readonly tokensUsed: number;
}

export type AnswerEvent =
  | { readonly type: "delta"; readonly text: string }
  | { readonly type: "done"; readonly answer: Answer };

export class GenerationFailed extends Schema.TaggedError<GenerationFailed>()("GenerationFailed", {
  message: Schema.String,
}) {}

/** Writes an answer with [n] citations from retrieved passages. */
export class Generator extends Context.Service<
  Generator,
  {
    readonly name: string;
    readonly generate: (input: GenerationInput) => Effect.Effect<Answer, GenerationFailed>;
    /** Text deltas, then exactly one `done` with the whole answer. */
    readonly stream: (input: GenerationInput) => Stream.Stream<AnswerEvent, GenerationFailed>;
  }
>()("core/Generator") {}
