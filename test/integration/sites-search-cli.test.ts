/**
 * `npm run search -- --site <id> "question"` as the operator runs it: the decision and its
 * evidence from that site's own index of SITES_FILE (built by `npm run ingest -- --site`),
 * never the default site's; what to do when SITES_FILE is unset, names no such site, or the
 * site has no index yet.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../support/service-process.ts";

const BOREALIS = join(REPO_ROOT, "test/fixtures/docs/small-borealis");

let work: string;
let env: Record<string, string>;

const run = (
  script: "ingest" | "search",
  args: ReadonlyArray<string>,
  extra: Record<string, string> = env,
) => {
  const base: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  const result = Bun.spawnSync([process.execPath, `src/cli/${script}.ts`, ...args], {
    cwd: REPO_ROOT,
    env: { ...base, ...extra },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
};

interface SearchOutput {
  readonly decision: string;
  readonly evidence: { readonly terms: number; readonly coverage: number };
  readonly chunks: ReadonlyArray<{ readonly source: string; readonly text: string }>;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "sites-search-cli-"));
  const sitesFile = join(work, "sites.json");
  writeFileSync(
    sitesFile,
    JSON.stringify({
      sites: [
        { id: "borealis", docs: BOREALIS, title: "Borealis Bike Lock" },
        { id: "empty", docs: BOREALIS },
      ],
    }),
  );
  env = { INDEX_PATH: join(work, "index.bin"), SITES_FILE: sitesFile };
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("search --site", () => {
  test("without SITES_FILE: exit 2, saying to set it", () => {
    const { code, stderr } = run("search", ["--site", "borealis", "How heavy is it?"], {
      INDEX_PATH: env.INDEX_PATH!,
    });
    expect(code).toBe(2);
    expect(stderr).toContain("SITES_FILE is not set");
  });

  test("an unknown site: exit 2, naming the sites the file lists", () => {
    const { code, stderr } = run("search", ["--site", "gamma", "How heavy is it?"]);
    expect(code).toBe(2);
    expect(stderr).toContain('no site "gamma" in SITES_FILE');
    expect(stderr).toContain("it lists borealis, empty");
  });

  test("a site without an index yet: exit 1, saying how to build it", () => {
    const { code, stdout, stderr } = run("search", ["--site", "empty", "How heavy is it?"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("npm run ingest -- --site empty");
  });

  test("the decision, its evidence and the chunks come from the site's own index", () => {
    const ingested = run("ingest", ["--site", "borealis"]);
    expect(ingested.code).toBe(0);
    expect(ingested.stdout).toContain(join(work, "sites", "borealis", "index.bin"));
    const { code, stdout } = run("search", [
      "--site",
      "borealis",
      "How much does the lock weigh?",
      "-k",
      "2",
    ]);
    expect(code).toBe(0);
    const found = JSON.parse(stdout) as SearchOutput;
    expect(found.decision).toBe("answer");
    expect(found.evidence.terms).toBeGreaterThan(0);
    expect(found.chunks).toHaveLength(2);
    expect(found.chunks[0]?.source).toBe("index.md");
    expect(found.chunks[0]?.text).toContain("1.2 kg");
    // The default site has no index at all: the site's was searched, not the default one.
    const other = run("search", ["How much does the lock weigh?"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("npm run ingest");
    expect(other.stderr).not.toContain("--site");
  });
});
