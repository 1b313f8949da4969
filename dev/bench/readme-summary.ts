/**
 * README's benchmark summary, written from BENCHMARKS.md so the two cannot disagree: every
 * figure below is read from a row of BENCHMARKS.md (section marker, the row's measure, a column)
 * and a missing row is an error, not a stale sentence. `npm run bench` rewrites it after
 * BENCHMARKS.md; `bun dev/bench/readme-summary.ts` does it by hand (after an edit of
 * BENCHMARKS.md); test/unit/readme-benchmarks.test.ts holds README to it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
export const README = join(ROOT, "README.md");
export const BENCHMARKS = join(ROOT, "BENCHMARKS.md");
const BEGIN = "<!-- bench-summary: written from BENCHMARKS.md by `bun dev/bench/readme-summary.ts` -->";
const END = "<!-- /bench-summary -->";

/** A table row of a section: its cells, `\|` kept as `|`. */
type Row = ReadonlyArray<string>;
const COLUMNS = { value: 1, baseline: 2, comparison: 3, goal: 4, verdict: 5 } as const;

/** The rows of every `<!-- bench:key -->` section of BENCHMARKS.md, by key. */
const sections = (benchmarks: string): ReadonlyMap<string, ReadonlyArray<Row>> =>
  new Map(
    benchmarks
      .split(/^(?=<!-- bench:)/m)
      .slice(1)
      .map((part) => [
        /^<!-- bench:(\S+) -->/.exec(part)?.[1] ?? "",
        part
          .split("\n")
          .filter((line) => line.startsWith("| ") && !line.startsWith("|---"))
          .map((line) =>
            line
              .slice(2, -2)
              .split(/ (?<!\\)\| /)
              .map((cell) => cell.replace(/\\\|/g, "|").trim()),
          ),
      ]),
  );

/** The summary paragraph, every figure read from BENCHMARKS.md. */
export const benchmarkSummary = (benchmarks: string): string => {
  const all = sections(benchmarks);
  const cell = (key: string, measure: string, column: keyof typeof COLUMNS): string => {
    const row = all.get(key)?.find((cells) => cells[0]?.startsWith(measure));
    const value = row?.[COLUMNS[column]];
    if (value === undefined || value === "")
      throw new Error(`BENCHMARKS.md has no ${column} for "${measure}" in its ${key} section`);
    return value;
  };
  /** "met" or "not met", as the row says. */
  const verdict = (key: string, measure: string) =>
    cell(key, measure, "verdict").replace(/\*/g, "") === "met" ? "met" : "not met";
  /** A same-moment row's median ratio ("median 0.52x" -> "0.52x"). */
  const median = (key: string, measure: string) => cell(key, measure, "comparison").replace(/^median /, "");
  const goal = (key: string, measure: string) => cell(key, measure, "goal").replace(/^>= /, "");
  const totals = /^Goals met: (\d+) of (\d+)\.$/m.exec(benchmarks);
  if (totals === null) throw new Error('BENCHMARKS.md has no "Goals met: N of M." line');
  const SOAK = "after a full GC, end of";
  const soakRow = all.get("soak")?.find((cells) => cells[0]?.startsWith(SOAK))?.[0] ?? "";
  const seconds = /end of (\d+) s of load/.exec(soakRow)?.[1];
  const clients = /<!-- bench:soak -->\n## .*?([\d,]+) client addresses/.exec(benchmarks)?.[1];
  if (seconds === undefined || clients === undefined)
    throw new Error("BENCHMARKS.md's soak section names no client addresses or seconds of load");
  const STATUS = "memory store: req/s, same moment";
  const REDIS = "Redis store: req/s, same moment";
  const HEAP = "live heap of the filled structures";
  const TWO = "GET /api/status, one Redis: two instances / one";
  const FAILOVER = "failover (down-after 1000 ms): kill to first 200";
  const WAIT = "POST /api/payment p95: REDIS_WAIT_REPLICAS=1 / 0";
  const text = [
    "`npm run bench` measures every figure beside a baseline run in the same moment and writes",
    `[BENCHMARKS.md](BENCHMARKS.md) (${totals[1]} of ${totals[2]} goals met on the machine of the last run).`,
    `Headlines: every request goes through the router, and \`GET /api/status\` runs at`,
    `**${median("status", STATUS)}** of a bare Hono route on the memory store`,
    `(floor ${goal("status", STATUS)}: ${verdict("status", STATUS)}) and **${median("status", REDIS)}**`,
    `of bare Hono doing one Redis read (floor ${goal("status", REDIS)}: ${verdict("status", REDIS)}),`,
    `\`GET /api/payment/info\` at **${median("payment-info", STATUS)}**`,
    `(floor ${goal("payment-info", STATUS)}: ${verdict("payment-info", STATUS)})`,
    "([why, and what it would take](docs/performance.md#the-request-path));",
    `payment verification **${cell("payment", "POST /api/payment p99", "comparison")}** and the HTTP 402`,
    `paywall **${cell("x402", "paid GET /premium-data p99", "comparison")}** at p99 over the RPC call they make;`,
    `chat on the embedded defaults p95 **${cell("chat", "p95, concurrency 10", "value")}** at concurrency 10,`,
    `and **${cell("chat-postgres", "p95, concurrency 1", "value")}** at concurrency 1 on the PostgreSQL docs;`,
    `first answer **${cell("startup", "cold start to the first answer (first start)", "value")}** after a cold`,
    `start; **${cell("startup", "RSS at idle, with the demo index", "value")}** at idle with the demo index.`,
    `The soak (${clients} clients, every bounded structure filled, then ${seconds} s of load on the four`,
    `endpoints): RSS after a full GC **${cell("soak", SOAK, "value")}** (goal ${cell("soak", SOAK, "goal")}:`,
    `${verdict("soak", SOAK)}), peak **${cell("soak", "peak RSS", "value")}**`,
    `(goal ${cell("soak", "peak RSS", "goal")}: ${verdict("soak", "peak RSS")}); the live heap of the filled`,
    `structures **${cell("soak", HEAP, "value")}** (goal ${cell("soak", HEAP, "goal")}: ${verdict("soak", HEAP)}).`,
    `Beyond one Redis (\`npm run bench -- redis-topologies\`, 2 cores): two instances serve status at`,
    `**${cell("redis-topologies", TWO, "comparison")}** of one (goal ${cell("redis-topologies", TWO, "goal").replace(/^>= /, "")}:`,
    `${verdict("redis-topologies", TWO)}), a Sentinel failover makes clients wait`,
    `**${cell("redis-topologies", FAILOVER, "comparison").replace(/^median /, "")}** (median, goal`,
    `${cell("redis-topologies", FAILOVER, "goal").replace(/^<= /, "")}: ${verdict("redis-topologies", FAILOVER)}),`,
    `and waiting for a replica adds **${cell("redis-topologies", WAIT, "comparison")}** to a paid answer's p95`,
    `(goal ${cell("redis-topologies", WAIT, "goal").replace(/^<= /, "")}: ${verdict("redis-topologies", WAIT)}).`,
  ].join(" ");
  return [BEGIN, ...wrap(text, 100), END].join("\n");
};

/** `text` in lines of at most `width` characters, broken at spaces. */
const wrap = (text: string, width: number): ReadonlyArray<string> => {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return line === "" ? lines : [...lines, line];
};

/** The summary as README holds it now, or undefined when its markers are missing. */
export const summaryIn = (readme: string): string | undefined => {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  return begin < 0 || end < begin ? undefined : readme.slice(begin, end + END.length);
};

/** Rewrites README's summary from BENCHMARKS.md (both read from `root`). */
export const writeBenchmarkSummary = (readmePath = README, benchmarksPath = BENCHMARKS): void => {
  const readme = readFileSync(readmePath, "utf8");
  const current = summaryIn(readme);
  if (current === undefined) throw new Error(`${readmePath} has no bench-summary markers`);
  writeFileSync(readmePath, readme.replace(current, benchmarkSummary(readFileSync(benchmarksPath, "utf8"))));
};

if (import.meta.main) {
  writeBenchmarkSummary();
  console.log("wrote README's benchmark summary from BENCHMARKS.md");
}
