/**
 * `npm run search -- [--site <id>] "question" [-k 5]`: prints what the service would do with a
 * question: the relevance decision (answer or decline) with its evidence, and the best chunks
 * from the configured index as {id, source, url, heading, score, text}; with `--site`, from that
 * site's index of SITES_FILE, with its settings (site-option.ts). Exit 0 on success, 1 when
 * retrieval fails (e.g. no index yet), 2 on bad usage or configuration.
 */
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { decideRelevance, measureRelevance } from "../../core/answers/relevance.ts";
import { Retriever } from "../../core/ports/retrieval.ts";
import { retrievalLayer, withSettings } from "../runtime/adapter-layers.ts";
import { commandLine } from "./command-line.ts";
import { siteOf } from "./site-option.ts";

const USAGE = `Usage: npm run search -- [--site ID] "question" [-k 5]

Prints, as JSON, whether the service would answer or decline the question (with the
evidence: question terms, best-passage coverage, share of known words) and the k best
chunks (default 5, at most 100): { "decision", "evidence", "indexVersion",
"chunks": [{ "id", "source", "url", "heading", "score", "text" }, ...] }. Uses the same index and
embedder settings as the service (INDEX_PATH or CHROMA_URL / VECTOR_API_KEY /
VECTOR_INDEX_NAME, EMBEDDING_MODEL).

  --site ID   search site ID of SITES_FILE: its own index (<folder of INDEX_PATH>/sites/ID/
              index.bin, or the Chroma collection <VECTOR_INDEX_NAME>-site-ID), as the
              service answers that site's visitors
  -k N        how many chunks to print (default 5, at most 100)`;

const {
  values,
  positionals,
  fail,
  config: readConfig,
} = commandLine("search", USAGE, {
  k: { type: "string", short: "k", default: "5" },
  site: { type: "string" },
});
const question = positionals.join(" ").trim();
if (question === "") fail("the question is empty", 2);
const k = Number(values.k);
if (!/^\d+$/.test(values.k) || k < 1 || k > 100)
  fail(`-k must be a whole number from 1 to 100 (got "${values.k}")`, 2);
// A hosted site's index and settings; the default site's without --site.
const config = values.site === undefined ? readConfig() : siteOf(readConfig(), values.site, fail).config;

const program = Effect.gen(function* () {
  const retriever = yield* Retriever;
  return yield* retriever.retrieve(question, k);
}).pipe(Effect.provide(withSettings(config, retrievalLayer)));
const outcome = await Effect.runPromise(Effect.result(program));
if (Result.isFailure(outcome))
  fail(
    values.site === undefined
      ? outcome.failure.message
      : `${outcome.failure.message} (the site's index is built with: npm run ingest -- --site ${values.site})`,
    1,
  );
const retrieval = Result.getOrThrow(outcome);
const chunks = retrieval.chunks.map(({ id, source, url, heading, score, text }) => ({
  id,
  source,
  url,
  heading,
  score: Number(score.toFixed(6)),
  text,
}));
const round = (share: number) => Number(share.toFixed(3));
const { evidence } = retrieval;
/** The shares the rule compares with its thresholds, then the facts they come from. */
const evidenceOf = (facts: typeof evidence) => {
  const { terms, coverage, known } = measureRelevance(facts);
  return {
    terms,
    coverage: round(coverage),
    known: round(known),
    breadth: round(facts.breadth),
    pairs: facts.pairs,
    pairsFound: facts.pairsFound,
    words: facts.words,
  };
};
console.log(
  JSON.stringify(
    {
      // What the service would do with the question: answer from these chunks, or decline for free.
      decision: chunks.length === 0 ? "decline" : decideRelevance(evidence),
      evidence: evidenceOf(evidence),
      indexVersion: retrieval.indexVersion,
      chunks,
    },
    null,
    2,
  ),
);
