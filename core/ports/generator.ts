import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import type * as Stream from "effect/Stream";
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
  /** The index the chunks come from; answers are cached per version (absent: not cached). */
  readonly indexVersion?: string;
  /**
   * The visitor's language (ISO 639-1) when it is not the docs': the question was translated
   * for retrieval, and the answer is written in this language (a model only).
   */
  readonly answerLanguage?: string | undefined;
  /** The question as retrieval read it, in the docs' language (its translation); absent: `question`. */
  readonly searched?: string | undefined;
  /** The docs' language (ISO 639-1): how the passages are cut into words. Absent: English. */
  readonly language?: string | undefined;
  /**
   * The relevance rule would decline the question; it reached the generator only because a
   * model judges for itself. An answer written without the model declines it.
   */
  readonly ruleDeclines?: boolean | undefined;
}

export interface Answer {
  readonly text: string;
  readonly tokensUsed: number;
  /**
   * The answer says the docs do not cover the question (the relevance decision, or a model
   * that found nothing in the passages): it is free, the query is given back.
   */
  readonly declined?: boolean;
  /**
   * The passages the answer lists as its sources, as indexes into the chunks it was given, in
   * the order listed; its [n] then cite the n-th of this list. Absent: every chunk, in the
   * order given (the input's own numbering).
   */
  readonly listed?: ReadonlyArray<number>;
}

export type AnswerEvent =
  /** The answer's `listed`, announced before any text by a generator that knows it. */
  | { readonly type: "sources"; readonly listed: ReadonlyArray<number> }
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
    /**
     * A language model reads the passages and says itself when they do not answer (a fixed
     * reply, a free decline): the relevance rule then stops only what nothing in the docs matches.
     */
    readonly judgesRelevance?: boolean | undefined;
    /** The question in `language` (ISO 639-1), for retrieval; absent without a language model. */
    readonly translate?:
      | ((text: string, language: string) => Effect.Effect<string, GenerationFailed>)
      | undefined;
    readonly generate: (input: GenerationInput) => Effect.Effect<Answer, GenerationFailed>;
    /** Maybe `sources` first, then text deltas, then exactly one `done` with the whole answer. */
    readonly stream: (input: GenerationInput) => Stream.Stream<AnswerEvent, GenerationFailed>;
  }
>()("core/Generator") {}
