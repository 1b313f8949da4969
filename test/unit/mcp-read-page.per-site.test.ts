/**
 * `read_page` keeps the pages it put together per site: an agent alternating between two sites
 * does not rebuild either site's pages on every call, and one site never reads another's pages,
 * even when both indexes report the same version (versions are per index, not per service).
 */
import { afterAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { type IndexListing, type ListedChunk, Retriever } from "../../core/ports/retrieval.ts";
import type { AppRuntime } from "../../src/hono-kit/run-effect.ts";
import { PAGE_CACHE_SITES, readPage } from "../../src/mcp/mcp-read-page.ts";

const chunk = (site: string): ListedChunk => ({
  id: `${site}.md:0`,
  text: `${site} page text.`,
  title: `${site} title`,
  heading: "",
  source: `${site}.md`,
  url: `https://${site}.test/${site}`,
  collection: site,
});

/** A site's runtime whose listing counts how often its passages are read (once per rebuild). */
const siteRuntime = (site: string, version: string) => {
  const counted = { rebuilds: 0 };
  const chunks = [chunk(site)];
  const listing: IndexListing = {
    version,
    get chunks() {
      counted.rebuilds += 1;
      return chunks;
    },
  };
  const runtime = ManagedRuntime.make(
    Layer.succeed(Retriever)({
      retrieve: () => Effect.die("not used"),
      listing: Effect.succeed(listing),
      ping: Effect.void,
    }),
  );
  return { runtime: runtime as unknown as AppRuntime, dispose: () => runtime.dispose(), counted };
};

const alpha = siteRuntime("alpha", "v1");
const beta = siteRuntime("beta", "v1");
afterAll(async () => {
  await alpha.dispose();
  await beta.dispose();
});

describe("read_page caches per site", () => {
  test("alternating between two sites builds each site's pages once, and each reads its own", async () => {
    for (let round = 0; round < 3; round += 1) {
      const a = await readPage(alpha.runtime, "alpha.md");
      const b = await readPage(beta.runtime, "beta.md");
      expect(a !== "unknown" && a !== "unavailable" && a.title).toBe("alpha title");
      expect(b !== "unknown" && b !== "unavailable" && b.title).toBe("beta title");
      // Neither site sees the other's page, though both indexes say "v1".
      expect(await readPage(beta.runtime, "alpha.md")).toBe("unknown");
    }
    expect(alpha.counted.rebuilds).toBe(1);
    expect(beta.counted.rebuilds).toBe(1);
  });

  test(`past ${PAGE_CACHE_SITES} sites the least recently read one is built again`, async () => {
    const others = Array.from({ length: PAGE_CACHE_SITES }, (_, i) => siteRuntime(`site${i}`, "v1"));
    const first = siteRuntime("first", "v1");
    await readPage(first.runtime, "first.md");
    for (const other of others) await readPage(other.runtime, "any.md");
    await readPage(first.runtime, "first.md");
    expect(first.counted.rebuilds).toBe(2);
    for (const site of [first, ...others]) await site.dispose();
  });
});
