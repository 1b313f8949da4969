/**
 * A folder site's index follows its folder (src/docs-sync/folder-docs.ts), on real files and a
 * real local index: at opening only a changed folder is indexed again (a restart over an
 * unchanged one indexes nothing); while followed, a page changed, added or removed is indexed
 * once the folder has settled, and only once (no loop); a folder that disappears is one WARN
 * and the last index stays; a stopped follower looks no more. Sources link to the baseUrl.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { readIndexFile } from "../../adapters/retrieval-local/index.ts";
import type { AppConfig } from "../../core/config/config.ts";
import { type FolderDocs, type FolderSite, startFolderDocs } from "../../src/docs-sync/folder-docs.ts";
import { stampPath } from "../../src/docs-sync/folder-stamp.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { siteLogger } from "../../src/sites/site-logger.ts";
import { waitFor } from "../support/free-port.ts";

const KETTLE = "# Kettle\n\n## Boiling\n\nThe kettle boils one litre of water in ninety seconds.\n";
const FILTER = "# Filter\n\n## Cleaning\n\nRinse the limescale filter under cold water every week.\n";
const INTERVAL_MS = 40;
/** Long enough for a change to be seen, settle, and be indexed (each look is 40 ms). */
const CHANGE_WAIT_MS = 10_000;

let work: string;
let docs: string;
let config: AppConfig;
let log: ReturnType<typeof memoryLogger>;
let followers: FolderDocs[];

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "folder-docs-"));
  docs = join(work, "docs");
  mkdirSync(join(docs, "guide"), { recursive: true });
  writeFileSync(join(docs, "guide", "kettle.md"), KETTLE);
  config = defaultConfig({
    vector: { kind: "local", indexPath: join(work, "data", "sites", "kettle", "index.bin") },
  });
  log = memoryLogger();
  followers = [];
});
afterEach(async () => {
  for (const follower of followers) await follower.stop();
  rmSync(work, { recursive: true, force: true });
});

const siteOf = (baseUrl?: string): FolderSite => ({
  config,
  folder: docs,
  baseUrl,
  logger: siteLogger(log.logger, "kettle"),
});

/** A follower of the one site `site`, started and opened (as a service start does). */
const follow = async (site: FolderSite) => {
  const follower = startFolderDocs(() => [{ id: "kettle", site }], {
    logger: log.logger,
    intervalMs: INTERVAL_MS,
  });
  followers.push(follower);
  await follower.open("kettle", site);
  return follower;
};

/** What the index file holds now: each chunk's page, link and text. */
const indexed = async () => {
  const data = await Effect.runPromise(readIndexFile((config.vector as { indexPath: string }).indexPath));
  return Array.from({ length: data?.count ?? 0 }, (_, i) => data!.chunk(i));
};
const texts = async () => (await indexed()).map((chunk) => chunk.text).join("\n");
const indexings = () => log.lines.filter((line) => line.msg === "docs folder indexed");
const warnings = () => log.lines.filter((line) => line.level === "WARN");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("at opening", () => {
  test("a site without an index is indexed, its sources linking to baseUrl's page and heading", async () => {
    await follow(siteOf("https://docs.example.com/kettle/"));
    const [chunk] = await indexed();
    expect(chunk?.text).toContain("ninety seconds");
    expect(chunk?.url).toBe("https://docs.example.com/kettle/guide/kettle.html#boiling");
    expect(indexings()).toHaveLength(1);
    expect(indexings()[0]).toMatchObject({ site: "kettle", reason: "opened", added: 1 });
    expect(existsSync(stampPath(config))).toBe(true);
    // With a baseUrl, nothing to warn about.
    expect(warnings()).toEqual([]);
  });

  test("without baseUrl: one WARN naming the site and the fix, and sources without a link", async () => {
    await follow(siteOf());
    expect((await indexed())[0]?.url).toBe("");
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ site: "kettle", folder: docs });
    expect(String(warnings()[0]?.msg)).toContain("will not link");
    expect(String(warnings()[0]?.fix)).toContain('"baseUrl"');
  });

  test("a restart over an unchanged folder indexes nothing; over a changed one, indexes the change", async () => {
    const first = await follow(siteOf());
    await first.stop();
    await follow(siteOf());
    expect(indexings()).toHaveLength(1);

    writeFileSync(join(docs, "guide", "kettle.md"), KETTLE.replace("ninety", "seventy"));
    writeFileSync(join(docs, "filter.md"), FILTER);
    await follow(siteOf());
    expect(indexings()).toHaveLength(2);
    expect(indexings()[1]).toMatchObject({ reason: "opened", added: 1, updated: 1, removed: 0 });
    expect(await texts()).toContain("seventy seconds");
  });

  test("a new baseUrl at a restart relinks every source", async () => {
    await (await follow(siteOf())).stop();
    await follow(siteOf("https://kettle.example.org"));
    expect((await indexed())[0]?.url).toBe("https://kettle.example.org/guide/kettle.html#boiling");
  });

  test("a folder that cannot be indexed: the site does not open without an index, opens on its last one", async () => {
    rmSync(docs, { recursive: true });
    const follower = startFolderDocs(() => [], { logger: log.logger, intervalMs: INTERVAL_MS });
    followers.push(follower);
    await expect(follower.open("kettle", siteOf())).rejects.toThrow(
      "could not be indexed and it has no index yet",
    );
    await follower.settled();

    mkdirSync(join(docs, "guide"), { recursive: true });
    writeFileSync(join(docs, "guide", "kettle.md"), KETTLE);
    await follow(siteOf("https://docs.example.com/"));
    rmSync(docs, { recursive: true });
    await follow(siteOf());
    expect(await texts()).toContain("ninety seconds");
    expect(warnings().map((line) => line.msg)).toContain(
      "docs folder could not be indexed; the site keeps answering from its last index",
    );
  });
});

describe("while followed", () => {
  test("a page changed, added, removed: each indexed once the folder settles, and only once", async () => {
    await follow(siteOf("https://docs.example.com/"));

    writeFileSync(join(docs, "guide", "kettle.md"), KETTLE.replace("ninety", "seventy"));
    await waitFor(async () => (await texts()).includes("seventy seconds"), CHANGE_WAIT_MS, "the change");
    expect(await texts()).not.toContain("ninety seconds");

    writeFileSync(join(docs, "filter.md"), FILTER);
    await waitFor(async () => (await texts()).includes("limescale"), CHANGE_WAIT_MS, "the new page");
    expect((await indexed()).find((chunk) => chunk.source === "filter.md")?.url).toBe(
      "https://docs.example.com/filter.html#cleaning",
    );

    unlinkSync(join(docs, "filter.md"));
    await waitFor(async () => !(await texts()).includes("limescale"), CHANGE_WAIT_MS, "the page gone");

    // Opening + three changes; many more looks after them index nothing again.
    await sleep(INTERVAL_MS * 15);
    expect(indexings().map((line) => line.reason)).toEqual(["opened", "changed", "changed", "changed"]);
    expect(
      indexings()
        .slice(1)
        .map(({ added, updated, removed }) => [added, updated, removed]),
    ).toEqual([
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ]);
  });

  test("a burst of writes (a copy in progress) is indexed once, after it has settled", async () => {
    await follow(siteOf());
    // A write every 10 ms: no two looks (40 ms apart at least) see the same folder until the end.
    for (let i = 1; i <= 20; i++) {
      writeFileSync(join(docs, "filter.md"), `${FILTER}\nStep ${i}${".".repeat(i)}\n`);
      await sleep(10);
    }
    await waitFor(async () => (await texts()).includes("Step 20"), CHANGE_WAIT_MS, "the last write");
    await sleep(INTERVAL_MS * 10);
    expect(indexings().map((line) => line.reason)).toEqual(["opened", "changed"]);
  });

  test("a folder that disappears: one WARN, the last index stays; when it is back it is followed again", async () => {
    await follow(siteOf("https://docs.example.com/"));
    renameSync(docs, `${docs}-away`);
    await waitFor(async () => warnings().length > 0, CHANGE_WAIT_MS, "the WARN");
    await sleep(INTERVAL_MS * 15);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ site: "kettle", folder: docs });
    expect(String(warnings()[0]?.problem)).toContain("no such file or folder");
    expect(await texts()).toContain("ninety seconds");

    renameSync(`${docs}-away`, docs);
    writeFileSync(join(docs, "filter.md"), FILTER);
    await waitFor(async () => (await texts()).includes("limescale"), CHANGE_WAIT_MS, "the folder back");
  });

  test("a stopped follower looks no more", async () => {
    const follower = await follow(siteOf());
    await follower.stop();
    writeFileSync(join(docs, "filter.md"), FILTER);
    await sleep(INTERVAL_MS * 10);
    expect(await texts()).not.toContain("limescale");
    expect(indexings()).toHaveLength(1);
  });

  test("a site no longer listed is no longer indexed", async () => {
    let listed = true;
    const site = siteOf();
    const follower = startFolderDocs(() => (listed ? [{ id: "kettle", site }] : []), {
      logger: log.logger,
      intervalMs: INTERVAL_MS,
    });
    followers.push(follower);
    await follower.open("kettle", site);
    await sleep(INTERVAL_MS * 3);
    listed = false;
    await sleep(INTERVAL_MS * 3);
    writeFileSync(join(docs, "filter.md"), FILTER);
    await sleep(INTERVAL_MS * 10);
    expect(await texts()).not.toContain("limescale");
  });
});
