/**
 * SITES_FILE under Deno (`npm run start:deno`, the local demo chain): the hosted site of the
 * file is served under /sites/<id>/ with its own docs and price, its demo page embeds the
 * widget with data-site, an unknown site is a 404 SITE_NOT_FOUND, and an edit of the file is
 * followed without a restart, as under Bun.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "../support/free-port.ts";
import { DENO_ENTRY, runToExit, type ServiceProcess, startService } from "../support/service-process.ts";

const QUUXLY =
  "# Quuxly sharding\n\nQuuxly shards every widget table by tenant and moves a shard with quuxly rebalance.\n";
const BETA = { id: "beta", docs: "./beta", title: "Quuxly docs", price: "0.005" };

describe("hosted sites under Deno", () => {
  let dir: string;
  let file: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sites-deno-"));
    mkdirSync(join(dir, "beta"));
    writeFileSync(join(dir, "beta", "quuxly.md"), QUUXLY);
    file = join(dir, "sites.json");
    writeFileSync(file, JSON.stringify({ sites: [BETA] }));
    service = await startService({
      command: DENO_ENTRY,
      readyTimeoutMs: 90_000, // a cold Deno start compiles the TypeScript first
      env: { SITES_FILE: file },
    });
  }, 120_000);
  afterAll(async () => {
    await service?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test("it is Deno that serves the site: its docs, its price, its demo page", async () => {
    expect(service.logs().find((line) => line.msg === "listening")).toMatchObject({ runtime: "deno" });
    const answer = await service.call("/sites/beta/api/chat", { message: "How does Quuxly shard tables?" });
    expect(answer.status).toBe(200);
    expect(JSON.stringify((await answer.json()).sources)).toContain("quuxly.md");
    const info = await (await service.call("/sites/beta/api/payment/info")).json();
    expect(info.pricePerQuery).toBe("0.005");
    const page = await (await service.call("/sites/beta/")).text();
    expect(page).toContain('data-site="beta"');
    const unknown = await service.call("/sites/gamma/api/status");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe("SITE_NOT_FOUND");
  }, 60_000);

  test("an edit of the sites file is followed without a restart", async () => {
    writeFileSync(file, JSON.stringify({ sites: [{ ...BETA, price: "0.004" }] }));
    const price = async () =>
      ((await (await service.call("/sites/beta/api/payment/info")).json()) as { pricePerQuery: string })
        .pricePerQuery;
    await waitFor(async () => (await price()) === "0.004", 30_000, "the new price");
  }, 60_000);
});

test("a bad SITES_FILE under Deno: exit 1 with every problem named, no stack trace", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sites-deno-bad-"));
  const file = join(dir, "sites.json");
  writeFileSync(
    file,
    JSON.stringify({
      sites: [
        { ...BETA, price: "free" },
        { ...BETA, docs: "./other" },
      ],
    }),
  );
  const { code, output } = await runToExit({
    command: DENO_ENTRY,
    env: { SITES_FILE: file },
    timeoutMs: 90_000,
  });
  rmSync(dir, { recursive: true, force: true });
  expect(code).toBe(1);
  expect(output).toContain("SITES_FILE: sites[0].price:");
  expect(output).toContain('SITES_FILE: sites[1].id: "beta" is also the id of sites[0]');
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
}, 120_000);
