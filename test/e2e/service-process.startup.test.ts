/**
 * What an operator sees when the service cannot start or is not ready, on the real process:
 * the listening address it really got (HOST, PORT=0), a port already in use (Bun and Deno),
 * an unreachable Redis (host and port, never the password), and a Chroma server without the
 * configured collection (the service starts, /readyz names the missing collection).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { type LocalChroma, startLocalChroma } from "../support/chroma-server.ts";
import { freePort } from "../support/free-port.ts";
import { chainEnv, startTestChain, type TestChain } from "../support/localnet.ts";
import { buildIndex, DENO_ENTRY, runToExit, startService } from "../support/service-process.ts";

let chain: TestChain | undefined;
let indexPath: string | undefined;
/** Opens the problem texts of /readyz (a stranger sees only which check failed). */
const METRICS_TOKEN = "startup-metrics-token-0123456789";
/** A configured chain, so these starts do not also start the demo chain. */
let base: Record<string, string> = {};

beforeAll(async () => {
  chain = await startTestChain();
  indexPath = await buildIndex();
  base = {
    INDEX_PATH: indexPath,
    ...chainEnv(chain),
  };
});
afterAll(async () => {
  await chain?.stop();
  if (indexPath !== undefined) rmSync(dirname(indexPath), { recursive: true, force: true });
});

const errorLine = (logs: ReadonlyArray<Readonly<Record<string, unknown>>>) =>
  logs.find((line) => line.level === "ERROR" && line.msg === "startup failed");

test("the start line names the address really listened on (HOST, and the port PORT=0 got)", async () => {
  const { code, logs } = await runToExit({ env: { ...base, HOST: "127.0.0.1", PORT: "0" }, timeoutMs: 3000 });
  expect(code).toBe(128 + 9); // still serving when the timeout killed it
  const url = String(logs.find((line) => line.msg === "listening")?.url);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(url).not.toContain(":0/");
}, 20_000);

test("HOST is what the socket binds: on 127.0.0.2 the service is not reachable on 127.0.0.1", async () => {
  const service = await startService({ env: { ...base, HOST: "127.0.0.1" } });
  expect((await service.call("/healthz")).status).toBe(200);
  await service.dispose();
  const port = await freePort();
  const { logs } = await runToExit({
    env: { ...base, HOST: "127.0.0.2", PORT: String(port) },
    timeoutMs: 2500,
  });
  expect(logs.find((line) => line.msg === "listening")?.url).toBe(`http://127.0.0.2:${port}/`);
}, 30_000);

describe.each([
  ["Bun", undefined],
  ["Deno", DENO_ENTRY],
] as const)("a port in use (%s)", (_runtime, command) => {
  test("one clear ERROR line naming the port and what to do, exit 1", async () => {
    const first = await startService({ env: base });
    try {
      const { code, logs, output } = await runToExit({
        env: { ...base, HOST: "127.0.0.1", PORT: String(first.port) },
        ...(command === undefined ? {} : { command }),
        timeoutMs: 60_000,
      });
      expect(code).toBe(1);
      expect(errorLine(logs)).toMatchObject({
        problem: `port ${first.port} is already in use on 127.0.0.1`,
        fix: expect.stringContaining("set PORT"),
      });
      expect(output).not.toContain("    at "); // no stack trace
    } finally {
      await first.dispose();
    }
  }, 90_000);
});

test("an unreachable Redis: host and port named, the password never", async () => {
  const port = await freePort(); // nothing listens there
  const { code, logs, output } = await runToExit({
    env: { ...base, REDIS_URL: `redis://:sup3r-secret-pw@127.0.0.1:${port}/0` },
  });
  expect(code).toBe(1);
  expect(errorLine(logs)).toMatchObject({
    problem: `cannot reach Redis at 127.0.0.1:${port}: redis connection refused`,
  });
  expect(output).not.toContain("sup3r-secret-pw");
}, 30_000);

describe("a Chroma server without the configured collection", () => {
  let chroma: LocalChroma | undefined;
  beforeAll(async () => {
    chroma = await startLocalChroma();
  }, 60_000);
  afterAll(async () => {
    await chroma?.stop();
  });

  test("the service starts; /readyz is 503 and says which collection is missing and how to fill it", async () => {
    const service = await startService({
      env: { ...base, CHROMA_URL: chroma!.url, VECTOR_INDEX_NAME: "no-such-docs", METRICS_TOKEN },
    });
    try {
      // Which collection is missing is for the operator (METRICS_TOKEN); a stranger learns only "not ready".
      const anonymous = await service.call("/readyz");
      expect(anonymous.status).toBe(503);
      expect(await anonymous.json()).toEqual({
        status: "not ready",
        checks: { store: "ok", chain: "ok", retrieval: "unavailable" },
      });
      const ready = await fetch(`${service.url}/readyz`, {
        headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(ready.status).toBe(503);
      const body = await ready.json();
      expect(body.checks).toEqual({ store: "ok", chain: "ok", retrieval: "unavailable" });
      expect(body.problems.retrieval).toContain('Chroma has no collection "no-such-docs"');
      expect(body.problems.retrieval).toContain("npm run ingest");
      const chat = await service.call("/api/chat", { message: "How do I install Widgetron?" });
      expect(chat.status).toBe(503);
      expect((await (await service.call("/api/status")).json()).remaining).toBe(3); // nothing charged
    } finally {
      await service.dispose();
    }
  }, 60_000);
});
