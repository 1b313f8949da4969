/** The first step of every retriever (local and Chroma): how many results, and the question's vector. */
import * as Effect from "effect/Effect";
import { type Embedder, RetrievalFailed } from "../../core/ports/retrieval.ts";

/**
 * `k` as a whole count and the question embedded; undefined when there is nothing to retrieve
 * (a blank question or fewer than one result asked for).
 */
export const questionVector = (
  embedder: Embedder["Service"],
  question: string,
  k: number,
): Effect.Effect<{ readonly limit: number; readonly vector: Float32Array } | undefined, RetrievalFailed> => {
  const limit = Math.floor(k);
  if (question.trim() === "" || !(limit > 0)) return Effect.succeed(undefined);
  return embedder.embed([question]).pipe(
    Effect.map(([vector]) => ({ limit, vector: vector as Float32Array })),
    Effect.mapError(
      (error) => new RetrievalFailed({ message: `embedding the question failed: ${error.message}` }),
    ),
  );
};
