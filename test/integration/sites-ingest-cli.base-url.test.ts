/**
 * `npm run ingest -- --site <id>` without inputs indexes a folder site's own docs as the service
 * does: linked to the site's baseUrl, unless `--base-url` says otherwise.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { readIndexFile } from "../../adapters/retrieval-local/index.ts";

let dir: string;
const indexPath = () => join(dir, "data", "sites", "kettle", "index.bin");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ingest-site-base-url-"));
  mkdirSync(join(dir, "kettle", "guide"), { recursive: true });
  writeFileSync(
    join(dir, "kettle", "guide", "boiling.md"),
    "# Zorblax kettle\n\n## Boiling water\n\nThe kettle boils one litre in ninety seconds.\n",
  );
  const sites = [{ id: "kettle", docs: "./kettle", baseUrl: "https://docs.example.com/kettle/" }];
  writeFileSync(join(dir, "sites.json"), JSON.stringify({ sites }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ingestSite = (extra: ReadonlyArray<string>) => {
  const result = Bun.spawnSync([process.execPath, "src/cli/ingest.ts", "--site", "kettle", ...extra], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      INDEX_PATH: join(dir, "data", "index.bin"),
      SITES_FILE: join(dir, "sites.json"),
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(result.stderr.toString()).toBe("");
  expect(result.exitCode).toBe(0);
};
const urls = async () => {
  const data = await Effect.runPromise(readIndexFile(indexPath()));
  return Array.from({ length: data?.count ?? 0 }, (_, i) => data!.chunk(i).url);
};

test("the site's own folder is linked to its baseUrl", async () => {
  ingestSite([]);
  expect(await urls()).toEqual(["https://docs.example.com/kettle/guide/boiling.html#boiling-water"]);
});

test("--base-url wins over the site's", async () => {
  ingestSite(["--base-url", "https://mirror.example.org"]);
  expect(await urls()).toEqual(["https://mirror.example.org/guide/boiling.html#boiling-water"]);
});
