/**
 * `npm run sites` as the operator runs it: every site of SITES_FILE with its settings,
 * its index on disk, its last docs sync and today's questions; the last two read from Redis and
 * said to be unknown without it; exit 2 naming what to do when SITES_FILE is unset.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { RedisDocsSync } from "../../adapters/store-redis/index.ts";
import { DocsSyncStore } from "../../core/ports/docs-sync.ts";
import { siteKeyPrefix } from "../../src/sites/site-store.ts";
import { describeWithRedis } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const OPERATOR = "operator-token-0123456789abcdef";
const ALPHA_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nThe service answers questions about its setup.\n" }),
  alpha: docsFolder({
    "zorblax.md":
      "# Zorblax frobnicator\n\nThe Zorblax frobnicator takes a frobnication level between one and nine.\n",
    "wibblet.md": "# Wibblet\n\nThe wibblet is calibrated weekly.\n",
  }),
};
const BETA_URL = "https://docs.beta.invalid/";

const sitesFile = () => {
  const file = join(mkdtempSync(join(tmpdir(), "sites-file-")), "sites.json");
  writeFileSync(
    file,
    JSON.stringify({
      sites: [
        {
          id: "alpha",
          docs: docs.alpha,
          title: "Alpha docs",
          price: "0.0025",
          wallet: ALPHA_WALLET,
          hosts: ["docs.alpha.test"],
        },
        { id: "beta", docs: BETA_URL },
      ],
    }),
  );
  return file;
};

const run = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const base: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  const result = Bun.spawnSync([process.execPath, "src/cli/sites.ts", ...args], {
    env: { ...base, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
};

/** A service hosting alpha (beta is a URL site it would crawl: left out), its indexes in `dataDir`. */
const alphaService = (dataDir: string, redisUrl?: string) =>
  buildSitesApp({
    defaultDocs: docs.default,
    dataDir,
    adminToken: OPERATOR,
    ...(redisUrl === undefined ? {} : { redisUrl }),
    sites: [
      {
        definition: siteDefinition("alpha", { docs: { kind: "folder", path: docs.alpha } }),
        folder: docs.alpha,
      },
    ],
  });

test("without SITES_FILE: exit 2, saying to set it", () => {
  const { code, stderr } = run([], {});
  expect(code).toBe(2);
  expect(stderr).toContain("SITES_FILE is not set");
});

describe("npm run sites (memory store)", () => {
  let env: Record<string, string>;
  let service: Awaited<ReturnType<typeof alphaService>>;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "sites-cli-"));
    service = await alphaService(dataDir);
    env = { INDEX_PATH: join(dataDir, "index.bin"), SITES_FILE: sitesFile() };
  });
  afterAll(() => service?.dispose());

  test("plain text: settings, index built or missing, store figures unknown without REDIS_URL", () => {
    const { code, stdout } = run([], env);
    expect(code).toBe(0);
    const [alpha = "", beta = ""] = stdout.split("\n\n").slice(1);
    expect(alpha).toStartWith("alpha  Alpha docs\n");
    expect(alpha).toContain(`  docs       ${docs.alpha}\n`);
    expect(alpha).toContain("  hosts      docs.alpha.test\n");
    expect(alpha).toContain("  price      0.0025 USDC a question (2500 base units), 3 free a day\n");
    expect(alpha).toContain(`  wallet     ${ALPHA_WALLET}\n`);
    expect(alpha).toMatch(/ {2}index {6}built: \d+ chunks from 2 files \(.*sites\/alpha\/index\.bin\)\n/);
    expect(alpha).toContain("  last sync  - (a folder");
    expect(alpha).toContain("  today      unknown without REDIS_URL");
    expect(beta).toContain(`  docs       ${BETA_URL}\n`);
    expect(beta).toMatch(/ {2}index {6}missing \(.*sites\/beta\/index\.bin\)\n/);
    expect(beta).toContain("  last sync  unknown without REDIS_URL\n");
  });

  test("--json: exact base units as strings", () => {
    const { code, stdout } = run(["--json"], env);
    expect(code).toBe(0);
    const body = JSON.parse(stdout) as { sites: Array<Record<string, unknown>> };
    expect(body.sites.map((site) => site.id)).toEqual(["alpha", "beta"]);
    expect(body.sites[0]).toMatchObject({
      price: { units: "2500", usdc: "0.0025" },
      freeQuestions: 3,
      wallet: ALPHA_WALLET,
      index: { state: "built", files: 2 },
      today: "unknown without REDIS_URL",
    });
    expect(body.sites[1]).toMatchObject({
      index: { state: "missing" },
      lastSync: "unknown without REDIS_URL",
    });
  });
});

describeWithRedis("npm run sites (Redis)", () => {
  const context = useRedisServer();
  let env: Record<string, string>;
  let service: Awaited<ReturnType<typeof alphaService>>;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "sites-cli-redis-"));
    service = await alphaService(dataDir, context.redis.url);
    for (const from of ["198.51.100.41", "198.51.100.42"])
      expect(
        (await service.ask("/sites/alpha/api/chat", "What level does the Zorblax take?", from)).status,
      ).toBe(200);
    // The site's console settles its recordings into the store.
    await service.call("/sites/alpha/api/admin/insights", {
      headers: { Authorization: `Bearer ${OPERATOR}` },
    });
    // Beta's last sync, as the service's sync would have recorded it under beta's prefix.
    await Effect.runPromise(
      Effect.flatMap(DocsSyncStore, (sync) =>
        sync.record({
          at: Date.UTC(2030, 0, 2, 3, 4),
          ok: true,
          url: BETA_URL,
          durationMs: 900,
          via: "sitemap",
          pages: 14,
          changed: 2,
          removed: 1,
          errors: 0,
        }),
      ).pipe(
        Effect.provide(RedisDocsSync.layer({ url: context.redis.url, keyPrefix: siteKeyPrefix("beta") })),
        Effect.orDie,
      ),
    );
    env = { INDEX_PATH: join(dataDir, "index.bin"), SITES_FILE: sitesFile(), REDIS_URL: context.redis.url };
  });
  afterAll(() => service?.dispose());

  test("today's questions and the last sync, per site, from the store", () => {
    const { code, stdout, stderr } = run([], env);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const [alpha = "", beta = ""] = stdout.split("\n\n").slice(1);
    expect(alpha).toContain("  today      2 questions (");
    expect(alpha).toContain(", 0 payments, 0.00 USDC");
    expect(beta).toContain("  last sync  2030-01-02 03:04 UTC, 14 pages, 2 changed, 1 removed, 0 errors\n");
    expect(beta).toContain("  today      0 questions (0 answered, 0 declined), 0 payments, 0.00 USDC");
  });
});
