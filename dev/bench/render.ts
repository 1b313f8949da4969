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

/** The marker before each section: a partial run replaces its own sections by key and keeps the rest. */
const marker = (key: string) => `<!-- bench:${key} -->`;

/** One section as Markdown, behind its marker. */
const renderSection = (key: string, section: Section): string => {
  const rows = section.figures.map(
    (figure) =>
      `| ${cell(figure.measure)} | ${cell(figure.value)} | ${cell(figure.baseline)} | ${cell(figure.comparison)} | ${cell(figure.goal)} | ${figure.met === undefined ? "" : figure.met ? "met" : "**not met**"} |`,
  );
  return [
    marker(key),
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

/** The rendered sections of an existing BENCHMARKS.md, by key. */
const sectionsIn = (markdown: string): Record<string, string> => {
  const sections: Record<string, string> = {};
  for (const part of markdown.split(/^(?=<!-- bench:)/m).slice(1)) {
    const key = /^<!-- bench:(\S+) -->/.exec(part)?.[1];
    if (key !== undefined) sections[key] = part.trim();
  }
  return sections;
};

/**
 * BENCHMARKS.md with the sections of this run (`fresh`, by key) replacing or joining those of
 * the `existing` file, whose other sections are kept word for word: a soak-only run must not
 * drop the rest. `order` lists the section keys first to last; others follow.
 */
export const updateBenchmarks = (
  existing: string,
  fresh: Readonly<Record<string, Section>>,
  order: ReadonlyArray<string>,
  root: string,
): string => {
  const sections = sectionsIn(existing);
  for (const [key, section] of Object.entries(fresh)) sections[key] = renderSection(key, section);
  const keys = [
    ...order.filter((key) => key in sections),
    ...Object.keys(sections).filter((key) => !order.includes(key)),
  ];
  const body = keys.map((key) => sections[key] as string);
  const count = (pattern: RegExp) => body.join("\n").match(pattern)?.length ?? 0;
  const met = count(/\| met \|$/gm);
  const notMet = count(/\| \*\*not met\*\* \|$/gm);
  return [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (`npm run bench -- <name>` re-runs one section and keeps the others with their dates).",
    "Every figure stands beside the baseline it was compared with in the same run, on the machine below,",
    "loopback only. Each goal is stated beside its figure; how each is measured is said under its section.",
    "",
    ...environment(root),
    "",
    `Goals met: ${met} of ${met + notMet}.`,
    "",
    ...body.flatMap((text) => [text, ""]),
  ].join("\n");
};
