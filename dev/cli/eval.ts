/**
 * `npm run eval`: how well the service answers, measured as a visitor meets it. Without
 * `--docs`, the suite: every small-sites set found (dev sites beside the repository, held-out
 * ones in test/fixtures, one in German) and, with `--node-docs DIR` / `--postgres-docs DIR`, the
 * two large corpora with their dev, held-out and out-of-scope sets. With `--docs DIR
 * --questions TSV`, that one corpus in detail. Every question goes through POST /api/chat of the
 * real service from its own client address. Exit 0 when it ran (whatever the figures), 1 when
 * it could not run, 2 on bad usage.
 */
import { basename } from "node:path";
import { commandLine } from "../../src/cli/command-line.ts";
import { readOutOfScope, readQuestions } from "../eval/questions.ts";
import { printReport, printSuiteReport, setMisses } from "../eval/report.ts";
import { PASSED_ON, passedOn, runCorpus } from "../eval/run-corpus.ts";
import { figures } from "../eval/score.ts";
import { largeSets, runSuite, smallSiteSets } from "../eval/suite.ts";

const USAGE = `Usage: npm run eval [-- --node-docs DIR] [--postgres-docs DIR] [--verbose]
       npm run eval -- --docs DIR --questions TSV [--out-of-scope TSV] [options]

Without --docs: the suite. Every small-sites set found (../shared/eval/small-sites, and
test/fixtures/eval/small-sites: a CLI, an HTTP API, a device and a German manual), each site
on its own service, and the large corpora whose folders are given: Node.js 18 API docs
(Debian's nodejs-doc: usr/share/doc/nodejs/api) and PostgreSQL 15 HTML (postgresql-doc-15:
usr/share/doc/postgresql-doc-15/html). Prints per set: answered with their fact, off-topic
declined, file recall@5, phrase rate, dev declined, declines charged, p95 latency.

With --docs: ingests DIR, starts the service on it and asks every question of TSV; prints
file recall@1/@5, phrase rate, decline rates, declines charged and latency.

  --node-docs DIR     the Node.js API docs folder (suite)
  --postgres-docs DIR the PostgreSQL HTML folder (suite)
  --questions TSV     header, then question<TAB>file<TAB>phrase lines (file relative to DIR)
  --out-of-scope TSV  header, then one question per line the docs do not answer
  --chroma URL|start  use a Chroma server (start: run one from node_modules on a free port)
  --warmup N          requests before measuring (default 20; the suite's small sites: 5)
  --verbose           list every miss
  -h, --help          show this text

The service gets the embedded defaults; ${PASSED_ON.join(", ")} are passed on from the
environment when set.`;

const { values, fail } = commandLine("eval", USAGE, {
  docs: { type: "string" },
  questions: { type: "string" },
  "out-of-scope": { type: "string" },
  "node-docs": { type: "string" },
  "postgres-docs": { type: "string" },
  chroma: { type: "string" },
  warmup: { type: "string" },
  verbose: { type: "boolean", default: false },
});
const warmup = values.warmup === undefined ? undefined : Number(values.warmup);
if (warmup !== undefined && (!Number.isInteger(warmup) || warmup < 0))
  fail("--warmup must be a whole number", 2);

const read = <A>(what: () => A): A => {
  try {
    return what();
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error), 2);
  }
};
const model = passedOn();
const answers =
  model.LLM_API_KEY === undefined ? "extractive answers" : `LLM ${model.LLM_MODEL ?? "(default model)"}`;

/** One corpus in detail (the report the large corpora were tuned with). */
const oneCorpus = async (docs: string) => {
  const questionsFile = values.questions ?? fail("--questions TSV is required with --docs", 2);
  const dev = read(() => readQuestions(questionsFile));
  const outOfScopeFile = values["out-of-scope"];
  const outOfScope = outOfScopeFile === undefined ? [] : read(() => readOutOfScope(outOfScopeFile));
  if (dev.length === 0) fail(`${questionsFile} has no questions`, 2);
  const run = await runCorpus({ docs, dev, outOfScope, chroma: values.chroma, warmup: warmup ?? 20 });
  printReport({
    docs,
    files: run.files,
    chunks: run.chunks,
    ingestSeconds: run.ingestSeconds,
    index: values.chroma === undefined ? "local index" : `Chroma (${values.chroma})`,
    answers,
    devSet: basename(questionsFile),
    outOfScopeSet: outOfScopeFile === undefined ? undefined : basename(outOfScopeFile),
    warmup: warmup ?? 20,
    figures: figures(run.dev, run.outOfScope, run.free),
    misses: values.verbose
      ? { dev: run.dev, outOfScope: outOfScope.map((q, i) => [q, run.outOfScope[i]!] as const) }
      : undefined,
  });
};

/** The suite: small sites, then the large corpora given. */
const suite = async () => {
  const small = read(smallSiteSets);
  const large = read(() => largeSets({ node: values["node-docs"], postgres: values["postgres-docs"] }));
  if (small.length + large.length === 0) fail("no question sets found (see --help)", 2);
  if (large.length === 0)
    console.error("eval: no large corpus given (--node-docs DIR, --postgres-docs DIR): small sites only");
  const results = await runSuite([...small, ...large], warmup ?? 5, (result) =>
    console.error(`eval: ${result.set.name} done (${result.chunks} chunks)`),
  );
  printSuiteReport(
    results.map(({ set, chunks, figures: f, run }) => ({
      name: set.name,
      chunks,
      figures: f,
      group: set.group,
      misses: values.verbose
        ? setMisses(
            run.dev,
            set.outOfScope.map((q, i) => [q, run.outOfScope[i]!] as const),
          )
        : [],
    })),
    answers,
  );
};

try {
  await (values.docs === undefined ? suite() : oneCorpus(values.docs));
} catch (error) {
  console.error(`eval: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
