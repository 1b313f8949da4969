/**
 * Chroma keeps a collection per site, against a real `chroma run` server: a folder site's
 * empty collection is indexed at start (once), each site's answers come from its own
 * collection only, a loaded collection's snapshot is measured, and a dropped one reloads.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import type { AppConfig } from "../../core/config/config.ts";
import { ensureSiteIndex } from "../../src/docs-sync/site-index.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { siteRetrieval } from "../../src/runtime/site-retrieval.ts";
import { type IndexSize, makeSiteIndexes } from "../../src/sites/site-indexes.ts";
import { type LocalChroma, startLocalChroma } from "../support/chroma-server.ts";

const logger = makeLogger(() => undefined);
const QUESTIONS = {
  acme: "How do I rotate an acme anvil key?",
  zeta: "How do I rotate a zeta rocket key?",
} as const;
type Site = keyof typeof QUESTIONS;

let chroma: LocalChroma;
let work: string;
const configs = {} as Record<Site, AppConfig>;

beforeAll(async () => {
  chroma = await startLocalChroma();
  work = mkdtempSync(join(tmpdir(), "site-chroma-"));
  for (const site of ["acme", "zeta"] as const) {
    const folder = join(work, site);
    mkdirSync(folder, { recursive: true });
    const thing = site === "acme" ? "anvil" : "rocket";
    writeFileSync(
      join(folder, "keys.md"),
      `# ${site} keys\n\n## Rotation\n\nTo rotate a ${site} ${thing} key, run \`${site} keys rotate\`.\n`,
    );
    configs[site] = defaultConfig({
      vector: { kind: "chroma", url: chroma.url, apiKey: undefined, collection: `docs-chat-site-${site}` },
    });
  }
}, 60_000);
afterAll(async () => {
  await chroma?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("a Chroma collection per site", () => {
  test("an empty collection is indexed from the site's folder once; answers come from the site's own collection", async () => {
    for (const site of ["acme", "zeta"] as const) {
      expect(await ensureSiteIndex(configs[site], join(work, site), logger)).toBe(1);
      expect(await ensureSiteIndex(configs[site], join(work, site), logger)).toBeUndefined();
    }
    const sizes: Record<string, IndexSize> = {};
    const indexes = makeSiteIndexes(1, { onLoad: (site, size) => (sizes[site] = size) });
    const ask = (site: Site, question: string) =>
      Effect.runPromise(indexes.retriever(site, siteRetrieval(configs[site])).retrieve(question, 3));

    const acme = await ask("acme", QUESTIONS.acme);
    expect(acme.chunks.map((chunk) => chunk.text)).toEqual([
      "To rotate a acme anvil key, run `acme keys rotate`.",
    ]);
    // Asked the other site's question, a site answers from its own docs only.
    const crossed = await ask("acme", QUESTIONS.zeta);
    expect(crossed.chunks.every((chunk) => chunk.text.includes("acme"))).toBe(true);

    // Measured: the snapshot's strings at 2 bytes a character, plus its lexical tables.
    const listing = await Effect.runPromise(indexes.retriever("acme", siteRetrieval(configs.acme)).listing);
    const characters = listing.chunks.reduce(
      (sum, c) =>
        sum +
        c.id.length +
        c.text.length +
        c.title.length +
        c.heading.length +
        c.source.length +
        c.url.length +
        c.collection.length,
      0,
    );
    expect(sizes.acme!.chunks).toBe(1);
    expect(sizes.acme!.bytes).toBeGreaterThan(2 * characters);
    expect(indexes.heldBytes()).toBe(sizes.acme!.bytes);

    // A budget of one byte: zeta's load drops acme, whose next use loads its collection again.
    const zeta = await ask("zeta", QUESTIONS.zeta);
    expect(zeta.chunks[0]?.text).toContain("zeta rocket");
    expect(indexes.held().map((index) => index.site)).toEqual(["zeta"]);
    expect((await ask("acme", QUESTIONS.acme)).chunks[0]?.text).toContain("acme anvil");
    expect(indexes.held().map((index) => index.site)).toEqual(["acme"]);
    await indexes.close();
  }, 60_000);
});
