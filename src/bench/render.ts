/** BENCHMARKS.md from the recorded sections (report.ts): machine, versions, then each section. */
import { readFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { join } from "node:path";
import type { Section } from "./report.ts";

const firstLine = (command: ReadonlyArray<string>): string => {
  if (Bun.which(command[0] ?? "") === null) return "not installed";
  const run = Bun.spawnSync([...command], { stdout: "pipe", stderr: "pipe" });
  return `${run.stdout.toString()}${run.stderr.toString()}`.trim().split("\n")[0] ?? "";
};

const packageVersion = (root: string, name: string): string => {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return "not installed";
  }
};

/** The machine and the versions the figures were measured with. */
export const environment = (root: string): ReadonlyArray<string> => [
  `- CPU: ${cpus()[0]?.model ?? "unknown"}, ${cpus().length} cores; memory ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Linux ${release()}`,
  `- Bun ${Bun.version}; ${firstLine(["node", "--version"])} (npm's); Deno ${packageVersion(root, "deno")} (npm package); ${firstLine(["redis-server", "--version"]).replace(/ sha=.*/, "")}`,
  `- load generator: ${firstLine(["wrk", "--version"]).split(" [")[0]} (Debian's; its "bombardier" package is a game, not the HTTP tool)`,
  `- hono ${packageVersion(root, "hono")}, effect ${packageVersion(root, "effect")}, @solana/kit ${packageVersion(root, "@solana/kit")}, ioredis ${packageVersion(root, "ioredis")}, litesvm ${packageVersion(root, "litesvm")}`,
];

const cell = (text: string | undefined) => (text ?? "").replace(/\|/g, "\\|");

const renderSection = (section: Section): string => {
  const rows = section.figures.map(
    (figure) =>
      `| ${cell(figure.measure)} | ${cell(figure.value)} | ${cell(figure.baseline)} | ${cell(figure.comparison)} | ${cell(figure.goal)} | ${figure.met === undefined ? "" : figure.met ? "met" : "**not met**"} |`,
  );
  return [
    `## ${section.title}`,
    "",
    `${section.method} Run ${section.at?.slice(0, 16).replace("T", " ")} UTC.`,
    "",
    "| measure | value | baseline (same run) | comparison | goal | |",
    "|---|---|---|---|---|---|",
    ...rows,
    ...(section.notes === undefined || section.notes.length === 0
      ? []
      : ["", ...section.notes.map((note) => `- ${note}`)]),
  ].join("\n");
};

/** The whole file. `order` lists the section keys first to last; others follow. */
export const renderBenchmarks = (
  results: Readonly<Record<string, Section>>,
  order: ReadonlyArray<string>,
  root: string,
): string => {
  const keys = [
    ...order.filter((key) => key in results),
    ...Object.keys(results).filter((key) => !order.includes(key)),
  ];
  const met = keys.flatMap((key) => results[key]?.figures ?? []).filter((figure) => figure.met !== undefined);
  return [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (`npm run bench -- <name>` re-runs one section and keeps the others with their dates).",
    "Every figure stands beside the baseline it was compared with in the same run, on the machine below,",
    "loopback only. Goals come from issue 14; how each is measured is said under its section.",
    "",
    ...environment(root),
    "",
    `Goals met: ${met.filter((figure) => figure.met).length} of ${met.length}.`,
    "",
    ...keys.map((key) => renderSection(results[key] as Section)).flatMap((text) => [text, ""]),
  ].join("\n");
};
