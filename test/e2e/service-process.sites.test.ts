/**
 * SITES_FILE on the real service (`npm start`, the local demo chain): the file is followed
 * without a restart. A site added to it is served (its folder indexed on the way); a file made
 * invalid is refused with one WARN naming every problem while every site keeps serving; a site
 * removed from it is a 404 SITE_NOT_FOUND at once (its runtime closes after RETIRE_AFTER_MS,
 * once what it was serving is done). A bad file at start exits 1 with every problem named, no
 * stack trace.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "../support/free-port.ts";
import { type LogLine, runToExit, type ServiceProcess, startService } from "../support/service-process.ts";

const DOCS = {
  alpha:
    "# Zorblax frobnicator\n\nThe Zorblax frobnicator is configured with a frobnication level between one and nine.\n",
  beta: "# Quuxly sharding\n\nQuuxly shards every widget table by tenant and moves a shard with quuxly rebalance.\n",
};
const ALPHA = {
  id: "alpha",
  docs: "./alpha",
  title: "Zorblax docs",
  price: "0.002",
  hosts: ["docs.zorblax.test"],
};
const BETA = { id: "beta", docs: "./beta", title: "Quuxly docs", price: "0.005" };

/** A folder with both sites' docs, and the sites file beside them. */
const sitesDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "sites-reload-"));
  for (const [id, text] of Object.entries(DOCS)) {
    mkdirSync(join(dir, id));
    writeFileSync(join(dir, id, `${id}.md`), text);
  }
  return dir;
};
const writeSites = (file: string, sites: ReadonlyArray<unknown>) =>
  writeFileSync(file, JSON.stringify({ sites }));

/** A bound wait on the file's next poll (every 2 s) and the site's opening (its folder indexed). */
const RELOAD_WAIT_MS = 30_000;

describe("SITES_FILE followed by the running service", () => {
  let dir: string;
  let file: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dir = sitesDir();
    file = join(dir, "sites.json");
    writeSites(file, [ALPHA]);
    service = await startService({ env: { SITES_FILE: file }, readyTimeoutMs: 60_000 });
  }, 90_000);
  afterAll(async () => {
    await service?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const status = async (path: string) => (await service.call(path)).status;
  const priceOf = async (id: string) =>
    ((await (await service.call(`/sites/${id}/api/payment/info`)).json()) as { pricePerQuery: string })
      .pricePerQuery;
  const warnings = () => service.logs().filter((line: LogLine) => line.level === "WARN");

  test("one site at start; another is unknown", async () => {
    expect(await status("/sites/alpha/api/status")).toBe(200);
    const unknown = await service.call("/sites/beta/api/status");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe("SITE_NOT_FOUND");
  });

  test("a site's host is served at the usual paths, let through the Host guard; another host is refused", async () => {
    const asHost = (host: string, path: string) =>
      fetch(`${service.url}${path}`, { headers: { Host: host } });
    const info = await asHost("docs.zorblax.test", "/api/payment/info");
    expect(info.status).toBe(200);
    expect((await info.json()).pricePerQuery).toBe("0.002");
    expect((await asHost("docs.zorblax.test", "/widget.js")).status).toBe(200);
    const foreign = await asHost("rebound.test", "/api/payment/info");
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).code).toBe("HOST_NOT_ALLOWED");
    // The service's own name still serves the default site, at its own price.
    expect((await (await service.call("/api/payment/info")).json()).pricePerQuery).toBe("0.001");
  });

  test("a site added to the file is served without a restart, with its own docs and title", async () => {
    writeSites(file, [ALPHA, BETA]);
    await waitFor(async () => (await status("/sites/beta/api/status")) === 200, RELOAD_WAIT_MS, "beta");
    const page = await (await service.call("/sites/beta/")).text();
    expect(page).toContain("<title>Quuxly docs · docs assistant</title>");
    const answer = await service.call("/sites/beta/api/chat", { message: "How does Quuxly shard tables?" });
    expect(answer.status).toBe(200);
    const sources = JSON.stringify((await answer.json()).sources);
    expect(sources).toContain("Quuxly");
    expect(sources).not.toContain("Zorblax");
    expect(await priceOf("beta")).toBe("0.005");
    expect(await priceOf("alpha")).toBe("0.002");
  }, 60_000);

  test("a file made invalid is refused with every problem named; both sites keep serving", async () => {
    const before = warnings().length;
    writeSites(file, [ALPHA, { ...BETA, price: "cheap" }, { ...BETA, docs: "./alpha" }]);
    await waitFor(async () => warnings().length > before, RELOAD_WAIT_MS, "the WARN");
    const warning = warnings()[before];
    expect(warning?.msg).toBe("sites file refused; the previous sites are kept");
    const problems = warning?.problems as ReadonlyArray<string>;
    expect(problems.some((p) => p.startsWith("SITES_FILE: sites[1].price:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("SITES_FILE: sites[2].id:") && p.includes("sites[1]"))).toBe(
      true,
    );
    expect(problems).toHaveLength(2);
    expect(await status("/sites/alpha/api/status")).toBe(200);
    expect(await status("/sites/beta/api/status")).toBe(200);
    // Beta's price is still the one of the last valid file.
    expect(await priceOf("beta")).toBe("0.005");
  }, 60_000);

  test("a site removed from the file is a 404 SITE_NOT_FOUND; the other keeps serving", async () => {
    writeSites(file, [ALPHA]);
    await waitFor(async () => (await status("/sites/beta/api/status")) === 404, RELOAD_WAIT_MS, "beta gone");
    const gone = await service.call("/sites/beta/api/chat", { message: "How does Quuxly shard tables?" });
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe("SITE_NOT_FOUND");
    expect(service.logs().some((line) => line.msg === "site removed" && line.site === "beta")).toBe(true);
    expect(await priceOf("alpha")).toBe("0.002");
  }, 60_000);
});

test("a bad SITES_FILE at start: exit 1 before anything starts, every problem named, no stack trace", async () => {
  const dir = sitesDir();
  const cwd = mkdtempSync(join(tmpdir(), "sites-start-"));
  const file = join(dir, "sites.json");
  writeSites(file, [
    { ...ALPHA, id: "Not An Id" },
    { ...BETA, price: "-1" },
    { ...BETA, colour: "blue" },
  ]);
  const { code, output } = await runToExit({ env: { SITES_FILE: file }, cwd, timeoutMs: 60_000 });
  // Nothing was started: no demo index built, no local chain's state written.
  const startedSomething = existsSync(join(cwd, ".data"));
  rmSync(dir, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
  expect(code).toBe(1);
  expect(startedSomething).toBe(false);
  expect(output.match(/Invalid configuration/g)?.length).toBe(1);
  for (const named of ["sites[0].id:", "sites[1].price:", "sites[2].colour: unknown key", "sites[2].id:"])
    expect(output).toContain(`SITES_FILE: ${named}`);
  expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(output).not.toContain("ConfigError");
}, 90_000);
