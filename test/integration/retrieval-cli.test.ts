/** The ingest and search CLIs as a user runs them: output shape, exit codes, messages. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LocalChroma, startLocalChroma } from "../support/chroma-server.ts";

let work: string;
let docs: string;
let chroma: LocalChroma;

const run = (script: "ingest" | "search", args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const base: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  const result = Bun.spawnSync([process.execPath, `src/cli/${script}.ts`, ...args], {
    env: { ...base, INDEX_PATH: join(work, "index.bin"), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "retrieval-cli-"));
  docs = join(work, "docs");
  cpSync("test/fixtures/docs/site", docs, { recursive: true });
  chroma = await startLocalChroma();
});
afterAll(async () => {
  await chroma?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("search before ingest", () => {
  test("a missing index is a clear error with exit 1", () => {
    const { code, stdout, stderr } = run("search", ["how do I install it"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("no index at");
    expect(stderr).toContain("npm run ingest");
  });
});

describe("ingest CLI", () => {
  test("reports what changed, then nothing on a second run", () => {
    const first = run("ingest", [docs, "--base-url", "https://docs.example.com/"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Ingested 5 files as "docs" into .*index\.bin: (\d+) chunks \(\1 added, 0 updated, 0 removed, 0 unchanged\)/,
    );
    const second = run("ingest", [docs, "--base-url", "https://docs.example.com/"]);
    expect(second.stdout).toMatch(/\(0 added, 0 updated, 0 removed, (\d+) unchanged\)/);
  });

  test("--source keeps a second set of docs beside the first, and says what the index holds", () => {
    const extra = join(work, "extra");
    mkdirSync(extra, { recursive: true });
    writeFileSync(join(extra, "faq.html"), "<h1>Extra FAQ</h1><p>Same file name, other folder.</p>");
    const added = run("ingest", [extra, "--source", "extra-docs"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Ingested 1 files as "extra-docs"');
    expect(added.stdout).toMatch(/The index holds: "docs" \(\d+ chunks\), "extra-docs" \(1 chunks\)/);
    expect(run("ingest", [extra, "--source", "no spaces"]).code).toBe(1);
  });

  test("bad usage exits 2 with the usage text; a missing folder exits 1", () => {
    for (const args of [[], ["--no-such-flag", docs], [docs, "--base-url", "ftp://x"]]) {
      const { code, stderr } = run("ingest", args);
      expect(code).toBe(2);
      expect(stderr).toContain("Usage: npm run ingest");
    }
    const missing = run("ingest", [join(work, "nowhere")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such file or folder");
    expect(run("ingest", ["--help"]).stdout).toContain("--base-url URL");
  });

  test("bad configuration exits 2 and names the variable", () => {
    const { code, stderr } = run("ingest", [docs], { CHROMA_URL: "http://127.0.0.1:1" });
    expect(code).toBe(2);
    expect(stderr).toContain("VECTOR_INDEX_NAME");
  });
});

describe("search CLI", () => {
  test("prints the decision, its evidence and the top chunks as JSON", () => {
    const { code, stdout } = run("search", ["How do I start a TCP server on a port?", "-k", "3"]);
    expect(code).toBe(0);
    const output = JSON.parse(stdout) as {
      decision: string;
      evidence: Record<string, number>;
      chunks: ReadonlyArray<Record<string, unknown>>;
    };
    expect(output.decision).toBe("answer");
    expect(output.evidence.coverage).toBeGreaterThan(0.8);
    const results = output.chunks;
    expect(results).toHaveLength(3);
    for (const result of results)
      expect(Object.keys(result)).toEqual(["id", "source", "url", "heading", "score", "text"]);
    expect(results[0]).toMatchObject({
      source: "api/network.md",
      url: "https://docs.example.com/api/network.html#netlistenport",
      heading: "net.listen(port)",
    });
    expect(typeof results[0]!.score).toBe("number");
    const offTopic = JSON.parse(run("search", ["What is the capital of Australia?"]).stdout);
    expect(offTopic.decision).toBe("decline");
  });

  test("an empty question or a bad -k exits 2 with the usage text", () => {
    for (const args of [
      [""],
      ["   "],
      ["q", "-k", "0"],
      ["q", "-k", "abc"],
      ["q", "-k", "101"],
      ["q", "-k"],
    ]) {
      const { code, stderr } = run("search", args);
      expect(code).toBe(2);
      expect(stderr).toContain("Usage: npm run search");
    }
  });

  test("the same CLIs work against Chroma when CHROMA_URL and VECTOR_INDEX_NAME are set", () => {
    const env = { CHROMA_URL: chroma.url, VECTOR_INDEX_NAME: "cli-docs" };
    const ingested = run("ingest", [docs], env);
    expect(ingested.code).toBe(0);
    expect(ingested.stdout).toContain(`Chroma collection "cli-docs" at ${chroma.url}`);
    const { code, stdout } = run("search", ["What licence is Widgetron under?", "-k", "1"], env);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).chunks[0]).toMatchObject({
      source: "faq.html",
      heading: "Is Widgetron free?",
    });
  });
});
