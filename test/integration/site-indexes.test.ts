/**
 * The sites' indexes in bounded memory, on real local index files built from small docs
 * folders: each loads on first use, the least recently used idle one is dropped past the
 * budget and loads again on its next use with the same answers, concurrent first uses load
 * once, and an index a call in flight uses is never dropped.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Context from "effect/Context";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type { AppConfig } from "../../core/config/config.ts";
import { Retriever } from "../../core/ports/retrieval.ts";
import { ensureSiteIndex } from "../../src/docs-sync/site-index.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { siteRetrieval } from "../../src/runtime/site-retrieval.ts";
import { FAILED_LOAD_HELD_MS, makeSiteIndexes, type SiteRetrieval } from "../../src/sites/site-indexes.ts";

/** Each site's docs: one animal, asked about by its own question. */
const SITES = {
  wombat: "How deep does a wombat burrow go?",
  quokka: "What does a quokka eat at night?",
  axolotl: "How does an axolotl regrow a limb?",
} as const;
type Site = keyof typeof SITES;

const page = (animal: string) =>
  [
    `# ${animal} handbook`,
    "",
    `## Habits`,
    "",
    `The ${animal} is the subject of this handbook. How deep does a ${animal} burrow go? About two metres.`,
    `What does a ${animal} eat at night? Leaves and grass. How does an ${animal} regrow a limb? Slowly.`,
    "",
    ...Array.from({ length: 12 }, (_, i) => `## Note ${i}\n\nThe ${animal} note ${i} says nothing more.\n`),
  ].join("\n");

const logger = makeLogger(() => undefined);
let work: string;
const configs = {} as Record<Site, AppConfig>;
const sizes = {} as Record<Site, number>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "site-indexes-"));
  for (const site of Object.keys(SITES) as Site[]) {
    const folder = join(work, "docs", site);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "handbook.md"), page(site));
    const indexPath = join(work, "data", "sites", site, "index.bin");
    configs[site] = defaultConfig({ vector: { kind: "local", indexPath } });
    expect(await ensureSiteIndex(configs[site], folder, logger)).toBeGreaterThan(0);
    // Indexed once: the next start finds the index and leaves it alone.
    expect(await ensureSiteIndex(configs[site], folder, logger)).toBeUndefined();
    sizes[site] = statSync(indexPath).size;
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A manager over the three sites that counts each site's loads and drops. */
const managed = (
  budgetBytes: number,
  wrap: (site: Site, retrieval: SiteRetrieval) => SiteRetrieval = (_, r) => r,
) => {
  const loads: Record<string, number> = {};
  const drops: string[] = [];
  const indexes = makeSiteIndexes(budgetBytes, { onDrop: (site) => drops.push(site) });
  // Counted where the layer is built: every load, even one whose result would be thrown away.
  const counted =
    (site: Site, retrieval: SiteRetrieval): SiteRetrieval =>
    (onSize) =>
      Layer.unwrap(
        Effect.sync(() => {
          loads[site] = (loads[site] ?? 0) + 1;
          return retrieval(onSize);
        }),
      );
  const retriever = (site: Site) =>
    indexes.retriever(site, counted(site, wrap(site, siteRetrieval(configs[site]))));
  /** The site's answer to its own question: the source of its best chunk and whether it names the animal. */
  const ask = async (site: Site) => {
    const retrieval = await Effect.runPromise(retriever(site).retrieve(SITES[site], 3));
    const best = retrieval.chunks[0]!;
    return { source: best.source, cites: best.text.includes(site) };
  };
  const held = () =>
    indexes
      .held()
      .map((index) => index.site)
      .sort();
  return { indexes, retriever, ask, loads, drops, held };
};

/** A budget that holds any two of the three indexes, never all three. */
const twoOfThree = () => {
  const all = Object.values(sizes).sort((a, b) => b - a);
  return all[0]! + all[1]!;
};

describe("the sites' indexes in bounded memory", () => {
  test("each index is measured by its file's size and loads on its first use only", async () => {
    const { indexes, ask, loads, held } = managed(twoOfThree());
    expect(held()).toEqual([]);
    expect(await ask("wombat")).toEqual({ source: "handbook.md", cites: true });
    expect(await ask("wombat")).toEqual({ source: "handbook.md", cites: true });
    expect(loads).toEqual({ wombat: 1 });
    expect(indexes.held()).toEqual([
      { site: "wombat", state: "loaded", inUse: 0, bytes: sizes.wombat, chunks: expect.any(Number) },
    ]);
    expect(indexes.heldBytes()).toBe(sizes.wombat);
    await indexes.close();
  });

  test("past the budget the least recently used is dropped, and reloads on its next use with the same answer", async () => {
    const { indexes, ask, loads, drops, held } = managed(twoOfThree());
    await ask("wombat");
    await ask("quokka");
    expect(held()).toEqual(["quokka", "wombat"]);
    await ask("axolotl");
    expect(drops).toEqual(["wombat"]);
    expect(held()).toEqual(["axolotl", "quokka"]);
    expect(indexes.heldBytes()).toBe(sizes.quokka + sizes.axolotl);
    // The quokka is now the least recently used: wombat's return drops it.
    expect(await ask("wombat")).toEqual({ source: "handbook.md", cites: true });
    expect(drops).toEqual(["wombat", "quokka"]);
    expect(held()).toEqual(["axolotl", "wombat"]);
    expect(loads).toEqual({ wombat: 2, quokka: 1, axolotl: 1 });
    for (const site of Object.keys(SITES) as Site[]) expect((await ask(site)).cites).toBe(true);
    await indexes.close();
    expect(indexes.held()).toEqual([]);
  });

  test("an index larger than the whole budget still serves (the newest is never dropped)", async () => {
    const { indexes, ask, drops, held } = managed(1);
    expect((await ask("wombat")).cites).toBe(true);
    expect(held()).toEqual(["wombat"]);
    expect((await ask("quokka")).cites).toBe(true);
    expect(drops).toEqual(["wombat"]);
    expect(held()).toEqual(["quokka"]);
    await indexes.close();
  });

  test("concurrent first uses of a site load its index once", async () => {
    // A local file loads synchronously; a transformers model or a Chroma collection does not:
    // the load here waits a tick first, so every caller arrives while it is under way.
    const slow: (site: Site, retrieval: SiteRetrieval) => SiteRetrieval = (_, retrieval) => (onSize) =>
      Layer.unwrap(Effect.as(Effect.sleep("1 millis"), retrieval(onSize)));
    const { indexes, ask, loads } = managed(twoOfThree(), slow);
    const answers = await Promise.all(Array.from({ length: 8 }, () => ask("axolotl")));
    expect(answers.every((answer) => answer.cites)).toBe(true);
    expect(loads).toEqual({ axolotl: 1 });
    await indexes.close();
  });

  test("an index a retrieve in flight uses is not dropped: the idle one after it is", async () => {
    const entered = Deferred.makeUnsafe<void>();
    const gate = Deferred.makeUnsafe<void>();
    // The wombat's retrieves wait at the gate, inside the real retriever's call, until the test opens it.
    const gated = (site: Site, retrieval: SiteRetrieval): SiteRetrieval =>
      site !== "wombat"
        ? retrieval
        : (onSize) =>
            Layer.effect(
              Retriever,
              Effect.map(Layer.build(retrieval(onSize)), (context) => {
                const inner = Context.get(context, Retriever);
                return Retriever.of({
                  ...inner,
                  retrieve: (question, k) =>
                    Deferred.succeed(entered, undefined).pipe(
                      Effect.andThen(Deferred.await(gate)),
                      Effect.andThen(inner.retrieve(question, k)),
                    ),
                });
              }),
            );
    const { indexes, ask, loads, drops, held } = managed(twoOfThree(), gated);
    const inFlight = ask("wombat");
    await Effect.runPromise(Deferred.await(entered));
    expect(indexes.held()).toMatchObject([{ site: "wombat", inUse: 1 }]);
    await ask("quokka");
    await ask("axolotl");
    // Over budget with all three: the wombat is the least recently used but in use, so the quokka goes.
    expect(drops).toEqual(["quokka"]);
    expect(held()).toEqual(["axolotl", "wombat"]);
    Deferred.doneUnsafe(gate, Effect.void);
    expect(await inFlight).toEqual({ source: "handbook.md", cites: true });
    expect(loads).toEqual({ wombat: 1, quokka: 1, axolotl: 1 });
    expect(held()).toEqual(["axolotl", "wombat"]);
    await indexes.close();
  });

  test("a forgotten site's index is closed and a missing index fails the call, not the manager", async () => {
    const { indexes, ask, retriever, held } = managed(twoOfThree());
    await ask("quokka");
    indexes.forget("quokka");
    expect(held()).toEqual([]);
    const missing = defaultConfig({ vector: { kind: "local", indexPath: join(work, "none", "index.bin") } });
    const failed = await Effect.runPromise(
      Effect.flip(indexes.retriever("none", siteRetrieval(missing)).retrieve("anything", 3)),
    );
    expect(failed._tag).toBe("RetrievalFailed");
    expect(held()).toEqual([]);
    expect(
      (await Effect.runPromise(retriever("quokka").retrieve(SITES.quokka, 3))).chunks.length,
    ).toBeGreaterThan(0);
    await indexes.close();
  });

  test("a failed load is answered from memory for a minute: no load and no cold-load budget spent, then tried again", async () => {
    let clock = 1_000_000;
    const asked: Array<boolean> = [];
    const indexes = makeSiteIndexes(twoOfThree(), {
      now: () => clock,
      admitLoad: (asker) => {
        asked.push(asker.question);
        return undefined;
      },
    });
    let builds = 0;
    const missing = defaultConfig({ vector: { kind: "local", indexPath: join(work, "gone", "index.bin") } });
    const broken: SiteRetrieval = (onSize) =>
      Layer.unwrap(
        Effect.sync(() => {
          builds += 1;
          return siteRetrieval(missing)(onSize);
        }),
      );
    const attempt = () => Effect.runPromise(Effect.flip(indexes.retriever("broken", broken).listing));
    const first = await attempt();
    expect(first._tag).toBe("RetrievalFailed");
    for (let i = 0; i < 5; i++) expect((await attempt()).message).toBe(first.message);
    expect({ builds, admitted: asked.length }).toEqual({ builds: 1, admitted: 1 });
    clock += FAILED_LOAD_HELD_MS - 1;
    await attempt();
    expect({ builds, admitted: asked.length }).toEqual({ builds: 1, admitted: 1 });
    clock += 1;
    await attempt();
    // Unset, the asker is a free use by nobody in particular.
    expect({ builds, asked }).toEqual({ builds: 2, asked: [false, false] });
    await indexes.close();
  });
});
