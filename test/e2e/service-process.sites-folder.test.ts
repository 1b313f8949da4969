/**
 * Folder sites of SITES_FILE on the real service (`npm start`), their docs as they are now:
 * a site with a baseUrl answers with sources linking to the page and heading; a site without
 * one is named by one WARN at start saying how to link it; a page changed, added or removed
 * while the service runs is answered from within seconds, no restart; a page changed while the
 * service is down is indexed at the next start; a bad baseUrl is a configuration error at start.
 * Under Deno too (`npm run start:deno`): the follower is plain node:fs stats and timers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DENO_ENTRY,
  type LogLine,
  runToExit,
  type ServiceProcess,
  startService,
} from "../support/service-process.ts";

const KETTLE_PAGE = (seconds: string) =>
  `# Zorblax kettle\n\n## Boiling water\n\nThe Zorblax kettle boils one litre of water in ${seconds} seconds.\n`;
const DESCALING_PAGE =
  "# Zorblax descaling\n\n## Citric acid\n\nDescale the Zorblax kettle with citric acid every month.\n";
const TEAPOT_PAGE = "# Quuxly teapot\n\n## Brewing\n\nThe Quuxly teapot brews green tea for three minutes.\n";
const BOIL = "How many seconds does the Zorblax kettle take to boil one litre of water?";
const DESCALE = "How do I descale the Zorblax kettle with citric acid?";
const BASE_URL = "https://docs.example.com/kettle/";

/** The time for a change to be seen (2 s looks, one more to settle), indexed and swapped in. */
const CHANGE_WAIT_MS = 30_000;

interface Source {
  readonly url: string;
  readonly snippet: string;
}

/**
 * What retrieval found for `message`: the `sources` event of a streamed answer, sent before any
 * answer text, so it holds whatever the answer says (or declines) about them.
 */
const sourcesOf = async (
  service: ServiceProcess,
  site: string,
  message: string,
): Promise<ReadonlyArray<Source>> => {
  const response = await service.call(`/sites/${site}/api/chat`, { message, stream: true });
  expect(response.status).toBe(200);
  const data = /^event: sources\ndata: (.*)$/m.exec(await response.text())?.[1];
  if (data === undefined) throw new Error(`no sources event for "${message}"`);
  return (JSON.parse(data) as { sources: ReadonlyArray<Source> }).sources;
};

/** Asks site kettle every half second until the sources satisfy `done` (each costs a free question). */
const askUntil = async (
  service: ServiceProcess,
  message: string,
  done: (sources: ReadonlyArray<Source>) => boolean,
  what: string,
) => {
  const deadline = performance.now() + CHANGE_WAIT_MS;
  let sources = await sourcesOf(service, "kettle", message);
  while (!done(sources)) {
    if (performance.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(sources)}`);
    await Bun.sleep(500);
    sources = await sourcesOf(service, "kettle", message);
  }
  return sources;
};

const texts = (sources: ReadonlyArray<Source>) => sources.map((source) => source.snippet).join("\n");

/** A folder with site kettle's docs (and teapot's), and the sites file beside them; returns the folder. */
const sitesDir = (sites: ReadonlyArray<unknown>) => {
  const dir = mkdtempSync(join(tmpdir(), "sites-folder-"));
  mkdirSync(join(dir, "kettle", "guide"), { recursive: true });
  mkdirSync(join(dir, "teapot"));
  writeFileSync(join(dir, "kettle", "guide", "boiling.md"), KETTLE_PAGE("ninety"));
  writeFileSync(join(dir, "teapot", "teapot.md"), TEAPOT_PAGE);
  writeFileSync(join(dir, "sites.json"), JSON.stringify({ sites }));
  return dir;
};
const KETTLE = { id: "kettle", docs: "./kettle", baseUrl: BASE_URL, freeQuestions: 1000 };
const TEAPOT = { id: "teapot", docs: "./teapot", freeQuestions: 1000 };

describe("folder sites following their docs", () => {
  let dir: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dir = sitesDir([KETTLE, TEAPOT]);
    service = await startService({ env: { SITES_FILE: join(dir, "sites.json") }, readyTimeoutMs: 60_000 });
  }, 90_000);
  afterAll(async () => {
    await service?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const indexings = () => service.logs().filter((line: LogLine) => line.msg === "docs folder indexed");

  test("a site with a baseUrl: its sources link to the page and its heading", async () => {
    const [first] = await sourcesOf(service, "kettle", BOIL);
    expect(first?.snippet).toContain("ninety seconds");
    expect(first?.url).toBe(`${BASE_URL}guide/boiling.html#boiling-water`);
  });

  test("a site without a baseUrl: one WARN at start naming it and the fix; its sources carry no link", async () => {
    const unlinked = service
      .logs()
      .filter((line: LogLine) => line.level === "WARN" && String(line.msg).includes("will not link"));
    expect(unlinked.map((line) => line.site)).toEqual(["teapot"]);
    expect(String(unlinked[0]?.fix)).toContain('"baseUrl"');
    expect(String(unlinked[0]?.fix)).toContain("SITES_FILE");
    const [first] = await sourcesOf(service, "teapot", "How long does the Quuxly teapot brew green tea?");
    expect(first?.snippet).toContain("three minutes");
    expect(first?.url).toBe("");
  });

  test("a page changed while running: answered from the new text within seconds", async () => {
    writeFileSync(join(dir, "kettle", "guide", "boiling.md"), KETTLE_PAGE("seventy"));
    const sources = await askUntil(
      service,
      BOIL,
      (found) => texts(found).includes("seventy seconds"),
      "the new fact",
    );
    expect(texts(sources)).not.toContain("ninety seconds");
    expect(sources[0]?.url).toBe(`${BASE_URL}guide/boiling.html#boiling-water`);
  }, 60_000);

  test("a page added becomes retrievable, with its link; removed, it is gone", async () => {
    writeFileSync(join(dir, "kettle", "descaling.md"), DESCALING_PAGE);
    const added = await askUntil(
      service,
      DESCALE,
      (found) => texts(found).includes("citric acid every month"),
      "the page",
    );
    expect(added.find((source) => source.snippet.includes("citric acid"))?.url).toBe(
      `${BASE_URL}descaling.html#citric-acid`,
    );

    unlinkSync(join(dir, "kettle", "descaling.md"));
    const removed = await askUntil(
      service,
      DESCALE,
      (found) => !texts(found).includes("citric acid"),
      "the page gone",
    );
    expect(removed.every((source) => !source.url.includes("descaling"))).toBe(true);
    // Each change indexed once: the start, then the change, the page added and the page removed.
    expect(
      indexings()
        .filter((line) => line.site === "kettle")
        .map((line) => line.reason),
    ).toEqual(["opened", "changed", "changed", "changed"]);
  }, 90_000);

  test("a page changed while the service is down is indexed at the next start", async () => {
    // A clean stop: the folders' follower stops with the service.
    expect(await service.stop()).toBe(0);
    writeFileSync(join(dir, "kettle", "guide", "boiling.md"), KETTLE_PAGE("sixty"));
    service = await service.restart();
    const [first] = await sourcesOf(service, "kettle", BOIL);
    expect(first?.snippet).toContain("sixty seconds");
    // Only the changed site was indexed again; the unchanged one was left as it was.
    expect(indexings().map((line) => [line.site, line.reason, line.updated])).toEqual([
      ["kettle", "opened", 1],
    ]);
  }, 90_000);
});

test("a bad baseUrl at start: exit 1, named as a configuration problem", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sites-base-url-"));
  mkdirSync(join(dir, "kettle"));
  writeFileSync(join(dir, "kettle", "kettle.md"), KETTLE_PAGE("ninety"));
  const sites = [
    { id: "kettle", docs: "./kettle", baseUrl: "docs.example.com/kettle" },
    { id: "acme", docs: "https://docs.acme.test/", baseUrl: "https://docs.acme.test/" },
  ];
  writeFileSync(join(dir, "sites.json"), JSON.stringify({ sites }));
  const { code, output } = await runToExit({
    env: { SITES_FILE: join(dir, "sites.json") },
    timeoutMs: 60_000,
  });
  rmSync(dir, { recursive: true, force: true });
  expect(code).toBe(1);
  expect(output.match(/Invalid configuration/g)?.length).toBe(1);
  expect(output).toContain("SITES_FILE: sites[0].baseUrl: must be the http(s) URL");
  expect(output).toContain("SITES_FILE: sites[1].baseUrl: only for a folder site");
}, 90_000);

describe("a folder site under Deno", () => {
  let dir: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dir = sitesDir([KETTLE]);
    service = await startService({
      command: DENO_ENTRY,
      readyTimeoutMs: 90_000, // a cold Deno start compiles the TypeScript first
      env: { SITES_FILE: join(dir, "sites.json") },
    });
  }, 120_000);
  afterAll(async () => {
    await service?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test("its sources link to baseUrl; a page changed is answered from within seconds, as under Bun", async () => {
    expect(service.logs().find((line) => line.msg === "listening")).toMatchObject({ runtime: "deno" });
    const [first] = await sourcesOf(service, "kettle", BOIL);
    expect(first?.url).toBe(`${BASE_URL}guide/boiling.html#boiling-water`);
    writeFileSync(join(dir, "kettle", "guide", "boiling.md"), KETTLE_PAGE("seventy"));
    await askUntil(service, BOIL, (found) => texts(found).includes("seventy seconds"), "the new fact");
  }, 60_000);
});
