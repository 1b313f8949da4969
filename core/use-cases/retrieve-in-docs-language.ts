/**
 * Retrieval in the docs' language. A question in the docs' language is retrieved as asked. One
 * in another language (retrieval tells which) is translated by the language model, when one is
 * configured, and retrieved again in the docs' language; the answer is then written in the
 * visitor's. Without a model, or when the translation fails (WARN, the visitor is not kept
 * waiting for an error), there is nothing to retrieve with: the caller answers with the notice
 * (core/answers/language-notice.ts), free.
 */
import * as Effect from "effect/Effect";
import { Generator } from "../ports/generator.ts";
import { type Retrieval, Retriever } from "../ports/retrieval.ts";

export interface InDocsLanguage {
  /** The retrieval of the question as asked (its languages, and the sources of a notice). */
  readonly asked: Retrieval;
  /** What to answer from; undefined when the question could not be put in the docs' language. */
  readonly retrieval: Retrieval | undefined;
  /** The question as retrieval read it (its translation, or itself). */
  readonly searched: string;
  /** The visitor's language when it is not the docs'. */
  readonly answerLanguage: string | undefined;
}

/** The question in `language` by the model; undefined without one or when it fails. */
const translated = (query: string, language: string) =>
  Effect.flatMap(Generator, (generator) =>
    generator.translate === undefined
      ? Effect.succeed(undefined)
      : generator.translate(query, language).pipe(
          Effect.map((text) => (text.trim() === "" ? undefined : text)),
          Effect.catchTag("GenerationFailed", (error) =>
            Effect.as(
              Effect.logWarning("could not translate a question; its visitor gets the language notice").pipe(
                Effect.annotateLogs({ reason: error.message, to: language }),
              ),
              undefined,
            ),
          ),
        ),
  );

export const retrieveInDocsLanguage = Effect.fn("retrieveInDocsLanguage")(function* (
  query: string,
  k: number,
) {
  const retriever = yield* Retriever;
  const asked = yield* retriever.retrieve(query, k);
  if (asked.questionLanguage === asked.language)
    return { asked, retrieval: asked, searched: query, answerLanguage: undefined } satisfies InDocsLanguage;
  const translation = yield* translated(query, asked.language);
  if (translation === undefined)
    return {
      asked,
      retrieval: undefined,
      searched: query,
      answerLanguage: undefined,
    } satisfies InDocsLanguage;
  return {
    asked,
    retrieval: yield* retriever.retrieve(translation, k),
    searched: translation,
    answerLanguage: asked.questionLanguage,
  } satisfies InDocsLanguage;
});
