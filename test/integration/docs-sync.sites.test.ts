/**
 * The docs sync per site: each URL site has its own lease and last record (its store's key
 * prefix), two instances sharing Redis sync a site once between them, and one instance syncs
 * its sites one after another, never two at once. Real crawls of a loopback docs site into
 * real local indexes; the store is the memory one and a real redis-server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Redacted from "effect/Redacted";
import { Redis } from "ioredis";
import type { AppConfig } from "../../core/config/config.ts";
import {
  followDefaultSite,
  type SyncedSite,
  serviceDocsSync,
  startSitesDocsSync,
} from "../../src/docs-sync/docs-sync-loop.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { type StaticSite, startStaticSite } from "../support/static-site.ts";

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

let work: string;
let docs: StaticSite;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "docs-sync-sites-"));
  for (const site of ["acme", "zeta"]) {
    mkdirSync(join(work, "www", site), { recursive: true });
    writeFileSync(
      join(work, "www", site, "index.html"),
      page(`${site} home`, `<p>${site} handbook: <a href="setup.html">setup</a>.</p>`),
    );
    writeFileSync(join(work, "www", site, "setup.html"), page(`${site} setup`, `<p>Install ${site}.</p>`));
  }
  docs = startStaticSite({ root: join(work, "www"), sitemap: "none" });
});
afterAll(() => {
  docs.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A site's configuration: its docs under /<id>/, its own index file, synced hourly. */
const siteConfig = (id: string, instance: string, redisUrl?: string): AppConfig => {
  const base = defaultConfig();
  return defaultConfig({
    vector: { kind: "local", indexPath: join(work, instance, "sites", id, "index.bin") },
    docsSite: {
      ...base.docsSite,
      url: `${docs.url}/${id}/`,
      allowPrivate: true,
      delayMs: 0,
      syncEveryMs: 3_600_000,
    },
    redis: redisUrl === undefined ? undefined : { kind: "url", url: Redacted.make(redisUrl) },
  });
};

/** A sync runner over `sites` whose log lines are kept. */
const instance = (sites: ReadonlyArray<SyncedSite>) => {
  const lines: Array<{ msg: string; site?: string }> = [];
  const sync = startSitesDocsSync(
    () => sites,
    makeLogger((line) => lines.push(JSON.parse(line))),
  );
  const syncs = () =>
    lines.filter((line) => line.msg.startsWith("docs sync ")).map((l) => `${l.msg} ${l.site}`);
  return { sync, syncs };
};

describe("the docs sync per site, on memory", () => {
  test("one instance syncs its sites one after another, each with its own record", async () => {
    const { sync, syncs } = instance(
      ["acme", "zeta"].map((id) => ({ site: id, config: siteConfig(id, "memory") })),
    );
    await sync.settled();
    expect(syncs()).toEqual([
      "docs sync started acme",
      "docs sync finished acme",
      "docs sync started zeta",
      "docs sync finished zeta",
    ]);
    expect(await sync.last("acme")).toMatchObject({ ok: true, pages: 2, url: `${docs.url}/acme/` });
    expect(await sync.last("zeta")).toMatchObject({ ok: true, pages: 2, url: `${docs.url}/zeta/` });
    expect(await sync.last("other")).toBeUndefined();
    await sync.stop();
  });
});

describe("the service's one docs sync", () => {
  test("the default site's DOCS_URL and the sites file's URL sites share one loop: one at a time, in the order they joined", async () => {
    const lines: Array<{ msg: string; site?: string }> = [];
    const loop = serviceDocsSync(makeLogger((line) => lines.push(JSON.parse(line))));
    // The service joins the default site first (service-layers.ts); here the other way round.
    loop.follow("sites-file", () => [{ site: "zeta", config: siteConfig("zeta", "one-loop") }]);
    const root = followDefaultSite(loop, siteConfig("acme", "one-loop"));
    // The round that was running when they joined, then the one they asked for.
    await loop.settled();
    await loop.settled();
    expect(
      lines.filter((line) => line.msg.startsWith("docs sync ")).map((l) => `${l.msg} ${l.site}`),
    ).toEqual([
      "docs sync started zeta",
      "docs sync finished zeta",
      "docs sync started default",
      "docs sync finished default",
    ]);
    expect(await root?.last()).toMatchObject({ ok: true, url: `${docs.url}/acme/` });
    await loop.stop();
  });
});

describe.skipIf(!redisServerAvailable())("the docs sync per site, on Redis", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  test("two instances sharing Redis sync a site once, under the site's lease and record", async () => {
    const acme = (name: string): SyncedSite => ({
      site: "acme",
      config: siteConfig("acme", name, server.url),
      keyPrefix: "docs-chat:site:acme:",
    });
    docs.resetCounts();
    const first = instance([acme("first")]);
    const second = instance([acme("second")]);
    await Promise.all([first.sync.settled(), second.sync.settled()]);
    expect([...first.syncs(), ...second.syncs()]).toEqual([
      "docs sync started acme",
      "docs sync finished acme",
    ]);
    expect(docs.counts.requests.get("/acme/setup.html")).toBe(1);
    const record = await first.sync.last("acme");
    expect(record).toMatchObject({ ok: true, pages: 2 });
    expect(await second.sync.last("acme")).toEqual(record!);
    // The site's record lives under its prefix; the default site's keys are untouched.
    const redis = new Redis(server.url);
    try {
      expect(await redis.keys("*docs-sync*")).toEqual(["docs-chat:site:acme:docs-sync:last"]);
    } finally {
      redis.disconnect();
    }
    await Promise.all([first.sync.stop(), second.sync.stop()]);
  });
});
