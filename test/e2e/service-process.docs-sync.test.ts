/**
 * The service keeps DOCS_URL in sync on the real process: the first sync replaces the demo
 * README with the site's pages (cited by URL and anchor), /readyz shows the last sync, a sync
 * that fails (the site answers 503) leaves the previous index serving and says so among the
 * operator's problems, and a changed page is served after the next sync without a restart.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import { type StaticSite, startStaticSite } from "../support/static-site.ts";

const METRICS_TOKEN = "metrics-token-for-the-sync-test";
const ADMIN_TOKEN = "admin-token-for-the-sync-test";
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="index.html">Home</a></nav>
  <main><h1>${title}</h1>${body}</main></body></html>`;

let work: string;
let site: StaticSite;
let service: ServiceProcess | undefined;

interface SyncView {
  readonly status: string;
  readonly docsSync?: {
    lastSync: string | null;
    ok?: boolean;
    pages?: number;
    changed?: number;
    url?: string;
  };
  readonly problems?: Record<string, string>;
}

const readiness = async (): Promise<SyncView> => {
  const response = await fetch(`${service!.url}/readyz`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return (await response.json()) as SyncView;
};

/** Polls /readyz until `test` holds (the sync runs every second). */
const readyzUntil = async (test: (view: SyncView) => boolean): Promise<SyncView> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const view = await readiness();
    if (test(view) || Date.now() > deadline) return view;
    await Bun.sleep(100);
  }
};

const ask = async (message: string) => {
  const response = await service!.call("/api/chat", { message });
  return (await response.json()) as { declined: boolean; response: string; sources: Array<{ url: string }> };
};

/** Asks until `test` holds: the service swaps a new index in within a second or so of a sync. */
const askUntil = async (message: string, test: (answer: Awaited<ReturnType<typeof ask>>) => boolean) => {
  const deadline = Date.now() + 10_000;
  let answer = await ask(message);
  while (!test(answer) && Date.now() < deadline) {
    await Bun.sleep(100);
    answer = await ask(message);
  }
  return answer;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "docs-sync-"));
  mkdirSync(join(work, "site", "docs"), { recursive: true });
  writeFileSync(
    join(work, "site", "docs", "index.html"),
    page("Handbook", `<p><a href="wombats.html">Wombats</a></p>`),
  );
  writeFileSync(
    join(work, "site", "docs", "wombats.html"),
    page(
      "Wombats",
      "<h2 id='burrows'>Burrows</h2><p>The wombat burrow option sets how deep a burrow goes.</p>",
    ),
  );
  site = startStaticSite({ root: join(work, "site"), sitemap: "plain" });
  service = await startService({
    cwd: work,
    env: {
      INDEX_PATH: join(work, "data", "index.bin"),
      DOCS_URL: `${site.url}/docs/`,
      DOCS_SYNC_EVERY: "1s",
      DOCS_ALLOW_PRIVATE: "true",
      DOCS_DELAY_MS: "0",
      METRICS_TOKEN,
      ADMIN_TOKEN,
      RATE_LIMIT_FREE_QUERIES: "1000",
    },
  });
});
afterAll(async () => {
  await service?.dispose();
  site?.stop();
  rmSync(work, { recursive: true, force: true });
});

test("the first sync replaces the demo README: answers cite the site's page URL and heading anchor", async () => {
  const view = await readyzUntil((v) => v.docsSync?.ok === true);
  expect(view.status).toBe("ready");
  expect(view.docsSync).toMatchObject({ ok: true, pages: 2, url: `${site.url}/docs/` });
  const answer = await askUntil("What does the wombat burrow option set?", (a) => !a.declined);
  expect(answer.declined).toBe(false);
  expect(answer.sources[0]?.url).toBe(`${site.url}/docs/wombats.html#burrows`);
  expect(service!.logs().some((line) => line.msg === "docs sync finished")).toBe(true);
  // The owner's console reads the same record from its insights API.
  const insights = await fetch(`${service!.url}/api/admin/insights`, {
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(((await insights.json()) as { docsSync: unknown }).docsSync).toMatchObject({
    ok: true,
    url: `${site.url}/docs/`,
    via: "sitemap",
    pages: 2,
  });
});

test("a failed sync leaves the previous index serving, and /readyz names the problem", async () => {
  site.setFailing(true);
  try {
    const view = await readyzUntil((v) => v.docsSync?.ok === false);
    expect(view.status).toBe("ready");
    expect(view.problems?.docsSync).toContain("previous index is serving");
    const answer = await ask("What does the wombat burrow option set?");
    expect(answer.sources[0]?.url).toBe(`${site.url}/docs/wombats.html#burrows`);
    expect(service!.logs().some((line) => String(line.msg).startsWith("docs sync failed"))).toBe(true);
  } finally {
    site.setFailing(false);
  }
});

test("a changed page is served after the next sync, without a restart", async () => {
  site.change(
    "/docs/wombats.html",
    page(
      "Wombats",
      "<h2 id='burrows'>Burrows</h2><p>The wombat burrow option now also sets the tunnel width.</p>",
    ),
  );
  const view = await readyzUntil((v) => v.docsSync?.ok === true && v.docsSync.changed === 1);
  expect(view.docsSync).toMatchObject({ ok: true, changed: 1 });
  const answer = await askUntil("What sets the wombat tunnel width?", (a) =>
    a.response.includes("tunnel width"),
  );
  expect(answer.response).toContain("tunnel width");
});
