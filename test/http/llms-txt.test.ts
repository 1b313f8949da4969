/**
 * GET /llms.txt and /llms-full.txt on the real app over a real local index: generated from
 * what was ingested, and following a re-ingest without a restart.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { ingest } from "../../adapters/docs-ingest/ingest-collection.ts";
import * as HashEmbedder from "../../adapters/embed-hash/hash-embedder.ts";
import * as LocalIndex from "../../adapters/retrieval-local/local-index.ts";
import * as LocalRetriever from "../../adapters/retrieval-local/local-retriever.ts";
import { testApps } from "../support/test-app.ts";

let work: string;
let docs: string;
let indexPath: string;

const ingestDocs = () =>
  Effect.runPromise(
    ingest([docs], { baseUrl: "https://docs.example.com" }).pipe(
      Effect.provide(Layer.provideMerge(LocalIndex.layer({ indexPath }), HashEmbedder.layer)),
    ),
  );

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "llms-txt-"));
  docs = join(work, "site");
  indexPath = join(work, "index.bin");
  cpSync("test/fixtures/docs/site", docs, { recursive: true });
  await ingestDocs();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const build = testApps();
const localApp = () =>
  build({ retrieval: Layer.provide(LocalRetriever.layer({ indexPath, pollMs: 20 }), HashEmbedder.layer) });

describe("GET /llms.txt", () => {
  test("title, summary, a section per folder and a described link per ingested page", async () => {
    const t = localApp();
    const response = await t.call("/llms.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/plain");
    const text = await response.text();
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines[2]).toStartWith("> 5 pages of documentation");
    expect(lines.filter((line) => line.startsWith("## "))).toEqual(["## Docs", "## api", "## guide"]);
    expect(text).toContain(
      "- [Network API](https://docs.example.com/api/network.html): Starts a TCP server on `port` and resolves once it accepts connections.",
    );
    // Every page is linked once, and nothing else is.
    expect(lines.filter((line) => line.startsWith("- [")).length).toBe(5);
  });

  test("llms-full.txt holds every section's text, each once", async () => {
    const t = localApp();
    const text = await (await t.call("/llms-full.txt")).text();
    expect(text).toContain("### Network API");
    expect(text).toContain("#### Timeouts > net.setTimeout(ms)");
    const sentence = "Closes idle connections after `ms` milliseconds without traffic.";
    expect(text.split(sentence).length - 1).toBe(1);
  });

  test("a re-ingest changes it without a restart; until then it is the same text", async () => {
    const t = localApp();
    const before = await t.call("/llms.txt");
    const first = await before.text();
    expect(await (await t.call("/llms.txt")).text()).toBe(first);
    writeFileSync(
      join(docs, "guide", "upgrade.md"),
      "# Upgrading Widgetron\n\nRun `widgetron migrate` before starting the new version.\n",
    );
    await ingestDocs();
    let after = first;
    let etag = before.headers.get("etag");
    for (let i = 0; i < 200 && after === first; i++) {
      await Bun.sleep(25);
      const response = await t.call("/llms.txt");
      after = await response.text();
      etag = response.headers.get("etag");
    }
    expect(after).toContain(
      "- [Upgrading Widgetron](https://docs.example.com/guide/upgrade.html): Run `widgetron migrate` before starting the new version.",
    );
    expect(after.split("\n")[2]).toStartWith("> 6 pages");
    expect(etag).not.toBe(before.headers.get("etag"));
  });

  test("503 when the index cannot be read", async () => {
    const t = build();
    t.switches.failRetrieval = true;
    expect((await t.call("/llms.txt")).status).toBe(503);
  });
});
