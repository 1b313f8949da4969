/**
 * Scripted layers for HTTP-edge tests (not for the real-component tests): a retriever over
 * fixed chunks, a generator that cites [1], and a chain whose transactions the test supplies.
 * Each can be told to fail so the edge's error paths are exercised.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Stream from "effect/Stream";
import { type ChainLookup, ChainReader, ChainUnavailable } from "../../core/ports/chain-reader.ts";
import { type AnswerEvent, GenerationFailed, Generator } from "../../core/ports/generator.ts";
import { type DocChunk, RetrievalFailed, Retriever } from "../../core/ports/retrieval.ts";
import { COVERED, OFF_TOPIC } from "./relevance-evidence.ts";

export const SAMPLE_CHUNKS: ReadonlyArray<DocChunk> = Array.from({ length: 7 }, (_, i) => ({
  id: `doc-${i + 1}`,
  text: `Passage ${i + 1}: use fs.writeFile to write a file. It replaces the file if it exists.`,
  title: `Doc ${i + 1}`,
  heading: `Doc ${i + 1} > Section`,
  source: `doc-${i + 1}.md`,
  url: `https://docs.example.com/doc-${i + 1}.html#section`,
}));

export interface Switches {
  failRetrieval: boolean;
  /** The index has nothing for any question. */
  noResults: boolean;
  /** Passages come back, but they miss the question (the service declines, for free). */
  offTopic: boolean;
  /** The generator answers that the docs do not cover the question (a decline). */
  declineInGeneration: boolean;
  failGeneration: boolean;
  /** A bug (defect) inside generation, carrying a cause that must never reach the client. */
  dieInGeneration: boolean;
  /** Delay before an answer, to hold requests in flight. */
  generationDelayMs: number;
  /** Questions the retriever saw, for follow-up rewriting tests. */
  readonly retrieved: string[];
}

export const makeSwitches = (): Switches => ({
  failRetrieval: false,
  noResults: false,
  offTopic: false,
  declineInGeneration: false,
  failGeneration: false,
  dieInGeneration: false,
  generationDelayMs: 0,
  retrieved: [],
});

export const scriptedRetriever = (switches: Switches) =>
  Layer.succeed(Retriever)(
    Retriever.of({
      retrieve: (question, k) =>
        Effect.suspend(() => {
          switches.retrieved.push(question);
          return switches.failRetrieval
            ? Effect.fail(new RetrievalFailed({ message: "index unreachable" }))
            : Effect.succeed({
                chunks: SAMPLE_CHUNKS.slice(0, switches.noResults ? 0 : k).map((chunk, i) => ({
                  ...chunk,
                  score: 1 - i / 10,
                })),
                evidence: switches.offTopic ? OFF_TOPIC : COVERED,
                indexVersion: "test-index-1",
                language: "en",
                questionLanguage: "en",
              });
        }),
      listing: Effect.suspend(() =>
        switches.failRetrieval
          ? Effect.fail(new RetrievalFailed({ message: "index unreachable" }))
          : Effect.succeed({
              version: "test-index-1",
              chunks: SAMPLE_CHUNKS.map((chunk) => ({ ...chunk, collection: "docs" })),
            }),
      ),
      ping: Effect.void,
    }),
  );

export const scriptedGenerator = (switches: Switches) => {
  const answer = (question: string) =>
    switches.declineInGeneration
      ? { text: "The documentation does not cover this.", tokensUsed: 17, declined: true }
      : { text: `You asked: ${question}. Use fs.writeFile [1].`, tokensUsed: 42 };
  return Layer.succeed(Generator)(
    Generator.of({
      name: "scripted",
      generate: (input) =>
        Effect.suspend(() =>
          switches.dieInGeneration
            ? Effect.die(new Error("secret-cause-xyz"))
            : switches.failGeneration
              ? Effect.fail(new GenerationFailed({ message: "model down" }))
              : Effect.as(Effect.sleep(switches.generationDelayMs), answer(input.question)),
        ),
      stream: (input) =>
        Stream.suspend(() =>
          switches.dieInGeneration
            ? // Some text, then a defect, all without waiting.
              Stream.concat(
                Stream.make<ReadonlyArray<AnswerEvent>>({ type: "delta", text: "Partial answer " }),
                Stream.die(new Error("secret-cause-xyz")),
              )
            : switches.failGeneration
              ? Stream.fail(new GenerationFailed({ message: "model down" }))
              : Stream.fromIterable(
                  switches.declineInGeneration
                    ? [
                        { type: "delta" as const, text: answer(input.question).text },
                        { type: "done" as const, answer: answer(input.question) },
                      ]
                    : [
                        { type: "delta" as const, text: "You asked: " },
                        { type: "delta" as const, text: `${input.question}. Use fs.writeFile [1].` },
                        { type: "done" as const, answer: answer(input.question) },
                      ],
                ).pipe(
                  // With a delay, each event waits for it: a test can hang up between them.
                  Stream.tap(() => Effect.sleep(switches.generationDelayMs)),
                ),
        ),
    }),
  );
};

/** A chain that answers from a map the test fills; `failWith` simulates an RPC outage. */
export const scriptedChain = (
  lookups: Map<string, ChainLookup>,
  failWith?: { value: ChainUnavailable | undefined },
) =>
  Layer.succeed(ChainReader)(
    ChainReader.of({
      lookup: (signature) =>
        Effect.suspend(() =>
          failWith?.value !== undefined
            ? Effect.fail(failWith.value)
            : Effect.succeed(lookups.get(signature) ?? { kind: "missing" }),
        ),
      ping: Effect.void,
    }),
  );

export const chainDown = () => new ChainUnavailable({ reason: "server-error", message: "HTTP 500 from RPC" });
