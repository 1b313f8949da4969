/**
 * The evaluation suite `npm run eval` runs without arguments: every small-sites set it finds
 * (the shared development sites beside the repository, and the held-out ones in
 * test/fixtures, one of them in German), each site on a service of its own, and the two large
 * corpora when their folders are given (Node.js Markdown, PostgreSQL HTML), with their dev,
 * held-out and out-of-scope sets. The same figures for every corpus size, side by side.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "../../test/support/service-process.ts";
import { type EvalQuestion, readOutOfScope, readQuestions, readSiteQuestions } from "./questions.ts";
import { runCorpus } from "./run-corpus.ts";
import { type EvalFigures, figures } from "./score.ts";

/** A set of the suite: a corpus with its questions. */
export interface SuiteSet {
  readonly name: string;
  readonly docs: string;
  readonly dev: ReadonlyArray<EvalQuestion>;
  readonly outOfScope: ReadonlyArray<string>;
  /** Small sites are summed per group ("small sites (dev)"), large corpora reported alone. */
  readonly group: string | undefined;
}

const SMALL_SITE_SETS = [
  { group: "small sites, dev", path: join(REPO_ROOT, "../shared/eval/small-sites/questions.tsv") },
  { group: "small sites, held-out", path: join(REPO_ROOT, "test/fixtures/eval/small-sites/questions.tsv") },
];

const fixture = (path: string) => join(REPO_ROOT, path);

/** The sets of the small sites found. */
export const smallSiteSets = (): ReadonlyArray<SuiteSet> =>
  SMALL_SITE_SETS.filter(({ path }) => existsSync(path)).flatMap(({ group, path }) =>
    readSiteQuestions(path).map(({ site, dev, outOfScope }) => ({
      name: site,
      docs: join(dirname(path), site),
      dev,
      outOfScope,
      group,
    })),
  );

/** Each large corpus's question sets: dev (with its out-of-scope questions) and held-out. */
const LARGE_CORPORA = {
  node: {
    name: "Node.js",
    dev: "test/fixtures/docs/node-docs-dev.tsv",
    heldOut: "test/fixtures/docs/node-docs-extra.tsv",
    outOfScope: "test/fixtures/eval/node-docs-out-of-scope.tsv",
  },
  postgres: {
    name: "PostgreSQL",
    dev: "test/fixtures/eval/postgres-dev.tsv",
    heldOut: "test/fixtures/eval/postgres-extra.tsv",
    outOfScope: "test/fixtures/eval/postgres-out-of-scope.tsv",
  },
} as const;

/** The large corpora's sets, for the folders given. */
export const largeSets = (
  folders: {
    readonly [corpus in keyof typeof LARGE_CORPORA]?: string | undefined;
  },
): ReadonlyArray<SuiteSet> =>
  (Object.keys(LARGE_CORPORA) as Array<keyof typeof LARGE_CORPORA>).flatMap((corpus) => {
    const docs = folders[corpus];
    if (docs === undefined) return [];
    const sets = LARGE_CORPORA[corpus];
    return [
      {
        name: `${sets.name} dev`,
        docs,
        dev: readQuestions(fixture(sets.dev)),
        outOfScope: readOutOfScope(fixture(sets.outOfScope)),
        group: undefined,
      },
      {
        name: `${sets.name} held-out`,
        docs,
        dev: readQuestions(fixture(sets.heldOut)),
        outOfScope: [],
        group: undefined,
      },
    ];
  });

export interface SetResult {
  readonly set: SuiteSet;
  readonly chunks: number;
  readonly figures: EvalFigures;
  readonly run: Awaited<ReturnType<typeof runCorpus>>;
}

/** Runs the sets one after another (one service at a time: the machine stays quiet). */
export const runSuite = async (
  sets: ReadonlyArray<SuiteSet>,
  warmup: number,
  onSet: (result: SetResult) => void,
): Promise<ReadonlyArray<SetResult>> => {
  const results: SetResult[] = [];
  for (const set of sets) {
    const run = await runCorpus({ docs: set.docs, dev: set.dev, outOfScope: set.outOfScope, warmup });
    const result = { set, chunks: run.chunks, figures: figures(run.dev, run.outOfScope, run.free), run };
    onSet(result);
    results.push(result);
  }
  return results;
};
