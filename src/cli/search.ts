/**
 * `npm run search -- "question" [-k 5]`: prints the best chunks from the configured index as a
 * JSON array of {id, source, url, heading, score, text}. Exit 0 on success, 1 when retrieval
 * fails (e.g. no index yet), 2 on bad usage or configuration.
 */
import { Effect, Result } from "effect";
import { Retriever } from "../../core/ports/retrieval.ts";
import { retrievalLayer, withSettings } from "../runtime/adapter-layers.ts";
import { commandLine } from "./command-line.ts";

const USAGE = `Usage: npm run search -- "question" [-k 5]

Prints the k best chunks (default 5, at most 100) for the question as JSON:
[{ "id", "source", "url", "heading", "score", "text" }, ...]. Uses the same index and
embedder settings as the service (INDEX_PATH or CHROMA_URL / VECTOR_API_KEY /
VECTOR_INDEX_NAME, EMBEDDING_MODEL).`;

const {
  values,
  positionals,
  fail,
  config: readConfig,
} = commandLine("search", USAGE, {
  k: { type: "string", short: "k", default: "5" },
});
const question = positionals.join(" ").trim();
if (question === "") fail("the question is empty", 2);
const k = Number(values.k);
if (!/^\d+$/.test(values.k) || k < 1 || k > 100)
  fail(`-k must be a whole number from 1 to 100 (got "${values.k}")`, 2);
const config = readConfig();

const program = Effect.gen(function* () {
  const retriever = yield* Retriever;
  return yield* retriever.retrieve(question, k);
}).pipe(Effect.provide(withSettings(config, retrievalLayer)));
const outcome = await Effect.runPromise(Effect.result(program));
if (Result.isFailure(outcome)) fail(outcome.failure.message, 1);
const chunks = Result.getOrThrow(outcome).map(({ id, source, url, heading, score, text }) => ({
  id,
  source,
  url,
  heading,
  score: Number(score.toFixed(6)),
  text,
}));
console.log(JSON.stringify(chunks, null, 2));
