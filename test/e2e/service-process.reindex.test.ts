/**
 * Live re-index on the real process: the start line says what is loaded, a finished ingest is
 * picked up without a restart (and logged), and requests keep being answered while it happens.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as Effect from "effect/Effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { indexLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { FIXTURE_DOCS, type ServiceProcess, startService } from "../support/service-process.ts";

let service: ServiceProcess | undefined;
let work: string;
let docs: string;
let indexPath: string;

const ingestDocs = () =>
  Effect.runPromise(
    ingest([docs], { collection: "site" }).pipe(
      Effect.provide(withSettings(defaultConfig({ vector: { kind: "local", indexPath } }), indexLayer())),
    ),
  );
const loaded = (msg: string) => service!.logs().filter((line) => line.msg === msg);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "reindex-"));
  docs = join(work, "site");
  cpSync(FIXTURE_DOCS, docs, { recursive: true });
  indexPath = join(work, "data", "index.bin");
  await ingestDocs();
  service = await startService({
    env: {
      INDEX_PATH: indexPath,
      RATE_LIMIT_FREE_QUERIES: "1000",
      PROTECTION_RATE_LIMIT: "100000",
      // The same uncovered question is asked in a loop while the ingest runs.
      DECLINES_PER_CLIENT_PER_DAY: "100000",
    },
  });
});
afterAll(async () => {
  await service?.dispose();
  rmSync(work, { recursive: true, force: true });
});

test("the start line names the index, its files and chunks", () => {
  const [start] = loaded("index loaded");
  expect(start).toMatchObject({ level: "INFO", files: 5, where: indexPath });
  expect(Number(start?.chunks)).toBeGreaterThan(5);
  expect(String(start?.version)).toMatch(/^[0-9a-f]{16}$/);
});

test("a finished ingest is served without a restart, and no request fails meanwhile", async () => {
  const ask = async () => {
    const res = await service!.call("/api/chat", { message: "When do quokkas travel?" });
    return { status: res.status, body: await res.json() };
  };
  const before = await ask();
  expect(before.body.declined).toBe(true);
  writeFileSync(
    join(docs, "guide", "quokkas.md"),
    "# Quokkas\n\nThe quokka migration happens in spring, at dawn.\n",
  );
  let stop = false;
  const statuses: number[] = [];
  const load = (async () => {
    while (!stop) statuses.push((await ask()).status);
  })();
  await ingestDocs();
  const deadline = Date.now() + 10_000;
  while (loaded("index reloaded after an ingest").length === 0 && Date.now() < deadline) await Bun.sleep(50);
  stop = true;
  await load;
  expect(loaded("index reloaded after an ingest")[0]).toMatchObject({ files: 6 });
  const after = await ask();
  expect(after.body.declined).toBe(false);
  expect(after.body.sources[0].source).toBe("guide/quokkas.md");
  expect(after.body.response).toContain("spring");
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.every((status) => status === 200)).toBe(true);
  expect(dirname(indexPath)).toBe(join(work, "data"));
});
