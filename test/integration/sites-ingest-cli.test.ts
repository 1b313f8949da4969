/**
 * `npm run ingest -- --site <id>` as the operator runs it: it writes that site's
 * index of SITES_FILE, never the default site's, says what to do when SITES_FILE is unset or
 * names no such site, and a running service answers from the new index without a restart.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nThe service answers questions about its setup.\n" }),
  alpha: docsFolder({
    "zorblax.md":
      "# Zorblax frobnicator\n\nThe Zorblax frobnicator is configured with a frobnication level between one and nine.\n",
  }),
  alphaNext: docsFolder({
    "wibblet.md":
      "# Wibblet calibration\n\nThe wibblet is calibrated with the wibblet tune command, once a week, after the frobnication.\n",
  }),
};

const run = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const base: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  const result = Bun.spawnSync([process.execPath, "src/cli/ingest.ts", ...args], {
    env: { ...base, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
};

describe("ingest --site", () => {
  let service: Awaited<ReturnType<typeof buildSitesApp>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    service = await buildSitesApp({
      defaultDocs: docs.default,
      sites: [
        {
          definition: siteDefinition("alpha", { docs: { kind: "folder", path: docs.alpha } }),
          folder: docs.alpha,
        },
      ],
    });
    const sitesFile = join(mkdtempSync(join(tmpdir(), "sites-file-")), "sites.json");
    writeFileSync(sitesFile, JSON.stringify({ sites: [{ id: "alpha", docs: docs.alpha }] }));
    env = { INDEX_PATH: join(service.dataDir, "index.bin"), SITES_FILE: sitesFile };
  });
  afterAll(() => service?.dispose());

  /** The files the site's answer to `question` cites. */
  const cited = async (question: string) => {
    const response = await service.ask("/sites/alpha/api/chat", question, "198.51.100.30");
    const body = (await response.json()) as { sources?: ReadonlyArray<{ source?: string; title?: string }> };
    return (body.sources ?? []).map((source) => `${source.source ?? ""} ${source.title ?? ""}`).join(" ");
  };

  test("without SITES_FILE: exit 2, saying to set it", () => {
    const { code, stderr } = run(["--site", "alpha", docs.alphaNext], { INDEX_PATH: env.INDEX_PATH! });
    expect(code).toBe(2);
    expect(stderr).toContain("SITES_FILE is not set");
  });

  test("an unknown site: exit 2, naming the sites the file lists; nothing is written", () => {
    const { code, stderr } = run(["--site", "gamma", docs.alphaNext], env);
    expect(code).toBe(2);
    expect(stderr).toContain('no site "gamma" in SITES_FILE');
    expect(stderr).toContain("it lists alpha");
    expect(existsSync(join(service.dataDir, "sites", "gamma"))).toBe(false);
  });

  test("writes the site's own index, and the running service answers from it", async () => {
    // The site's index is loaded (and watched) before the ingest.
    expect(await cited("How is the Zorblax frobnication level configured?")).toContain("zorblax");
    const { code, stdout } = run(["--site", "alpha", docs.alphaNext, "--rebuild"], env);
    expect(code).toBe(0);
    expect(stdout).toContain(join(service.dataDir, "sites", "alpha", "index.bin"));
    // The running retriever picks the new file up on its own poll; wait for it, no fixed delay.
    let answer = "";
    for (let attempt = 0; attempt < 200 && !answer.includes("wibblet"); attempt++) {
      await Bun.sleep(50);
      answer = await cited("How is the wibblet calibrated?");
    }
    expect(answer).toContain("wibblet");
    // The default site's index is untouched.
    const fallback = await service.ask("/api/chat", "How is the wibblet calibrated?", "198.51.100.31");
    expect(JSON.stringify(await fallback.json())).not.toContain("wibblet");
  });

  test("without inputs, the site's own docs from SITES_FILE", () => {
    const { code, stdout } = run(["--site", "alpha", "--rebuild"], env);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Ingested 1 files as ".+" into .*sites\/alpha\/index\.bin/);
  });
});
