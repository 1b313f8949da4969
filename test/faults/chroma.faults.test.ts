/**
 * Chroma down under the real service process, with a real `chroma run` server holding the
 * fixture docs (ingested with the ingest CLI): chat answers 503 and charges nothing while it
 * is down, /readyz says so, and the service recovers by itself when Chroma is back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type LocalChroma, startLocalChroma } from "../support/chroma-server.ts";
import { waitFor } from "../support/free-port.ts";
import { chainEnv, startTestChain, type TestChain } from "../support/localnet.ts";
import { FIXTURE_DOCS, REPO_ROOT, type ServiceProcess, startService } from "../support/service-process.ts";

const QUESTION = { message: "How do I install Widgetron?" };
let chroma: LocalChroma | undefined;
let chain: TestChain | undefined;
let service: ServiceProcess | undefined;

const remaining = async () => (await (await service!.call("/api/status")).json()).remaining as number;

describe("Chroma down, then back", () => {
  beforeAll(async () => {
    [chroma, chain] = await Promise.all([startLocalChroma(), startTestChain()]);
    const vector = { CHROMA_URL: chroma.url, VECTOR_INDEX_NAME: "widgetron" };
    const ingest = Bun.spawnSync([process.execPath, join(REPO_ROOT, "src/cli/ingest.ts"), FIXTURE_DOCS], {
      env: { PATH: process.env.PATH ?? "", ...vector },
      stdout: "pipe",
      stderr: "pipe",
    });
    if (ingest.exitCode !== 0) throw new Error(`ingest failed: ${ingest.stderr.toString()}`);
    service = await startService({
      env: {
        ...vector,
        ...chainEnv(chain),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await service?.dispose();
    await chain?.stop();
    await chroma?.stop();
  });

  test("up: the chat answers from Chroma and charges one question", async () => {
    const res = await service!.call("/api/chat", QUESTION);
    expect(res.status).toBe(200);
    expect((await res.json()).sources[0].source).toBe("guide/install.md");
    expect(await remaining()).toBe(2);
  });

  test("down: chat is 503 with Retry-After and charges nothing; /readyz names retrieval", async () => {
    await chroma!.down();
    const res = await service!.call("/api/chat", QUESTION);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ code: "RETRIEVAL_FAILED" });
    expect(await remaining()).toBe(2);
    const ready = await service!.call("/readyz");
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks.retrieval).toBe("unavailable");
    // The rest of the service does not depend on Chroma.
    expect((await service!.call("/api/payment/info")).status).toBe(200);
  }, 30_000);

  test("back: the service recovers by itself, and the next answer is charged once", async () => {
    await chroma!.up();
    await waitFor(async () => (await service!.call("/readyz")).status === 200, 10_000, "readiness");
    const res = await service!.call("/api/chat", QUESTION);
    expect(res.status).toBe(200);
    expect(await remaining()).toBe(1);
  }, 40_000);
});
