/** The evaluation report as text: the figures against their goals, and (verbose) every miss. */
import { fmt } from "../bench/stats.ts";
import type { ChatReply } from "./ask.ts";
import { type DevOutcome, type EvalFigures, foundIn, phraseAnswered } from "./score.ts";

export interface EvalReport {
  readonly docs: string;
  readonly files: number;
  readonly chunks: number;
  readonly ingestSeconds: number;
  readonly index: string;
  readonly answers: string;
  readonly devSet: string;
  readonly outOfScopeSet: string | undefined;
  readonly warmup: number;
  readonly figures: EvalFigures;
  readonly misses:
    | {
        readonly dev: ReadonlyArray<DevOutcome>;
        readonly outOfScope: ReadonlyArray<readonly [string, ChatReply]>;
      }
    | undefined;
}

const rate = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(2));
const verdict = (met: boolean) => (met ? "met" : "MISSED");
const clip = (text: string, chars: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars)}...`;
};

const missLines = (misses: NonNullable<EvalReport["misses"]>): ReadonlyArray<string> => [
  "",
  "misses (F: file in top 5, P: phrase in answer, D: declined):",
  ...misses.dev
    .filter((o) => !foundIn(o, 5) || !phraseAnswered(o) || o.reply.declined)
    .map(
      (o) =>
        `  ${foundIn(o, 5) ? "F" : "-"}${phraseAnswered(o) ? "P" : "-"}${o.reply.declined ? "D" : "-"} ${o.question.question}\n` +
        `      want ${o.question.file} "${o.question.phrase}"; got ${o.reply.sources.join(" ") || "(no sources)"}\n` +
        `      answer: ${clip(o.reply.answer, 300)}`,
    ),
  ...misses.outOfScope
    .filter(([, reply]) => !reply.declined)
    .map(
      ([question, reply]) => `  answered out-of-scope: ${question}\n      answer: ${clip(reply.answer, 200)}`,
    ),
];

/** Prints the report to stdout. */
export const printReport = (report: EvalReport) => {
  const f = report.figures;
  const lines = [
    `docs ${report.docs}: ${report.files} files, ${report.chunks} chunks (ingest ${report.ingestSeconds.toFixed(1)} s)`,
    `service: bun src/main.ts, ${report.index}, ${report.answers}; every question through POST /api/chat`,
    "",
    `dev set ${report.devSet}: ${f.dev} questions`,
    `  file recall@1   ${rate(f.recallAt1)}`,
    `  file recall@5   ${rate(f.recallAt5)}   goal >= 0.95: ${verdict(f.recallAt5 >= 0.95)}`,
    `  phrase rate     ${rate(f.phraseRate)}   goal >= 0.85: ${verdict(f.phraseRate >= 0.85)} (phrase in the answer text)`,
    `  declined        ${rate(f.devDeclined)}   goal <= 0.05: ${verdict(f.devDeclined <= 0.05)}`,
    ...(report.outOfScopeSet === undefined
      ? []
      : [
          `out-of-scope set ${report.outOfScopeSet}: ${f.outOfScope} questions`,
          `  declined        ${rate(f.outOfScopeDeclined)}   goal >= 0.90: ${verdict(f.outOfScopeDeclined >= 0.9)}`,
        ]),
    `declined answers charged: ${f.declinesCharged} (goal 0: ${verdict(f.declinesCharged === 0)})`,
    `replies other than 200: ${f.failures}`,
    `chat latency over ${f.dev + f.outOfScope} requests (after ${report.warmup} warm-up): p50 ${fmt(f.latency.p50)}, p95 ${fmt(f.latency.p95)} (goal < 50 ms: ${verdict(f.latency.p95 < 50)}), p99 ${fmt(f.latency.p99)}`,
    ...(report.misses === undefined ? [] : missLines(report.misses)),
  ];
  console.log(lines.join("\n"));
};

/** Counts behind a rate: "17/20 (0.85)". */
const counted = (count: number, of: number) =>
  of === 0 ? "-" : `${count}/${of} (${(count / of).toFixed(2)})`;

interface SuiteRow {
  readonly name: string;
  readonly chunks: number;
  readonly figures: EvalFigures;
}

const suiteLine = (row: SuiteRow) => {
  const f = row.figures;
  const answered = Math.round(f.answeredWithFact * f.dev);
  const declined = Math.round(f.outOfScopeDeclined * f.outOfScope);
  return [
    row.name.padEnd(22),
    String(row.chunks).padStart(6),
    counted(answered, f.dev).padEnd(14),
    counted(declined, f.outOfScope).padEnd(14),
    rate(f.recallAt5).padStart(5),
    rate(f.phraseRate).padStart(6),
    rate(f.devDeclined).padStart(6),
    String(f.declinesCharged).padStart(4),
    fmt(f.latency.p95).padStart(10),
  ].join("  ");
};

/**
 * The suite as one table: a row per set, and per group of small sites the sums, against the
 * goals (answered with their fact >= 0.90, off-topic declined >= 0.90; large corpora: no
 * regression, see BENCHMARKS.md).
 */
export const printSuiteReport = (
  rows: ReadonlyArray<SuiteRow & { readonly group: string | undefined; readonly misses: string[] }>,
  answers: string,
) => {
  const header = [
    "set".padEnd(22),
    "chunks".padStart(6),
    "answered+fact".padEnd(14),
    "off-topic decl".padEnd(14),
    "rec@5",
    "phrase",
    "decl.",
    "chg.",
    "p95".padStart(10),
  ].join("  ");
  const lines = [
    `service: bun src/main.ts, local index, ${answers}; every question through POST /api/chat`,
    "",
    header,
  ];
  const groups = [...new Set(rows.flatMap((row) => (row.group === undefined ? [] : [row.group])))];
  for (const group of groups) {
    const members = rows.filter((row) => row.group === group);
    lines.push(...members.map(suiteLine));
    const sum = (pick: (f: EvalFigures) => number) =>
      members.reduce((total, row) => total + pick(row.figures), 0);
    const dev = sum((f) => f.dev);
    const answered = sum((f) => Math.round(f.answeredWithFact * f.dev));
    const off = sum((f) => f.outOfScope);
    const declined = sum((f) => Math.round(f.outOfScopeDeclined * f.outOfScope));
    lines.push(
      `  ${group}: answered with their fact ${counted(answered, dev)} (goal >= 0.90: ${verdict(answered >= 0.9 * dev)}), off-topic declined ${counted(declined, off)} (goal >= 0.90: ${verdict(declined >= 0.9 * off)}), declines charged ${sum((f) => f.declinesCharged)}`,
      "",
    );
  }
  lines.push(...rows.filter((row) => row.group === undefined).map(suiteLine));
  const misses = rows.flatMap((row) => row.misses.map((miss) => `  [${row.name}] ${miss}`));
  if (misses.length > 0) lines.push("", "misses:", ...misses);
  console.log(lines.join("\n"));
};

/** A set's misses, one line each: answerable questions not answered with their fact, off-topic ones answered. */
export const setMisses = (
  dev: ReadonlyArray<DevOutcome>,
  outOfScope: ReadonlyArray<readonly [string, ChatReply]>,
): string[] => [
  ...dev
    .filter((o) => o.reply.declined || !phraseAnswered(o))
    .map(
      (o) =>
        `${o.reply.declined ? "declined" : "no fact "} ${o.question.question} (want "${o.question.phrase}" from ${o.question.file}; got ${o.reply.sources.join(" ") || "no sources"}): ${clip(o.reply.answer, 160)}`,
    ),
  ...outOfScope
    .filter(([, reply]) => !reply.declined)
    .map(([question, reply]) => `answered off-topic: ${question}: ${clip(reply.answer, 120)}`),
];
