/**
 * The same app under Deno (src/deno.ts, the `deno` npm package's binary): started on a free
 * port against the local chain and a fixture index, its endpoints answer like the Bun
 * entry's, a real USDC payment is verified, the socket address is the quota identity, a bad
 * config exits 1 with the problem list, and SIGTERM stops it with exit code 0.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { waitFor } from "../support/free-port.ts";
import { chainEnv, startTestChain, type TestChain } from "../support/localnet.ts";
import {
  buildIndex,
  DENO_ENTRY,
  npmScript,
  REPO_ROOT,
  runToExit,
  type ServiceProcess,
  startService,
} from "../support/service-process.ts";

let chain: TestChain | undefined;
let service: ServiceProcess | undefined;
let indexPath: string | undefined;

const call = (path: string, body?: unknown) => service!.call(path, body);

describe("the app under Deno", () => {
  beforeAll(async () => {
    chain = await startTestChain();
    indexPath = await buildIndex();
    service = await startService({
      command: DENO_ENTRY,
      readyTimeoutMs: 60_000, // a cold Deno start compiles the TypeScript first
      env: {
        INDEX_PATH: indexPath,
        ...chainEnv(chain),
      },
    });
  }, 90_000);
  afterAll(async () => {
    await service?.dispose();
    await chain?.stop();
    if (indexPath !== undefined) rmSync(dirname(indexPath), { recursive: true, force: true });
  });

  test("it is Deno that listens", () => {
    expect(service!.logs().find((line) => line.msg === "listening")).toMatchObject({
      runtime: "deno",
      network: "localnet",
      wallet: chain!.serviceWallet,
    });
  });

  test("GET /api/status: the free quota, with the socket address as identity", async () => {
    const res = await call("/api/status");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, remaining: 3, requiresPayment: false });
    // Access lines are written in batches (at most 25 ms late).
    const accessLine = () =>
      service!.logs().find((line) => line.msg === "request" && line.path === "/api/status");
    await waitFor(async () => accessLine() !== undefined, 2000, "the access line");
    expect(accessLine()).toMatchObject({ status: 200, identity: "127.0.0.1" });
  });

  test("GET /api/payment/info: the configured chain", async () => {
    const res = await call("/api/payment/info");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      network: "localnet",
      recipient: chain!.serviceWallet,
      usdcMint: chain!.mint,
      token: "USDC",
    });
  });

  test("POST /api/chat: empty -> 400, bad JSON -> 400, a question -> 200 with sources", async () => {
    const empty = await call("/api/chat", { message: "" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ success: false, error: "Message cannot be empty" });
    const broken = await fetch(`${service!.url}/api/chat`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);

    const res = await call("/api/chat", { message: "How do I install Widgetron?" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.sources[0].source).toBe("guide/install.md");
    expect(body.rateLimit.remaining).toBe(2);
  });

  test("POST /api/payment: a real transfer is verified once", async () => {
    const signature = await chain!.sendUsdc({ units: 10_000n });
    const paid = await call("/api/payment", { signature, amount: 0.01, token: "USDC" });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ success: true, queriesGranted: 10 });
    const again = await call("/api/payment", { signature, amount: 0.01, token: "USDC" });
    expect((await again.json()).code).toBe("SIGNATURE_ALREADY_USED");
  }, 30_000);

  test("no warning from Deno itself: the chat's hang-up signal is the non-legacy one", () => {
    // The chat test above read request.signal; the legacy behaviour printed a warning then.
    expect(service!.output()).not.toContain("legacy");
    expect(service!.output()).not.toMatch(/^Warning/m);
  });

  test("SIGTERM: graceful stop, exit code 0", async () => {
    expect(await service!.stop()).toBe(0);
    expect(service!.logs().at(-1)).toMatchObject({ msg: "stopped" });
  }, 30_000);
});

test("`npm run check:deno`: deno check passes on core/ and adapters/", async () => {
  const check = Bun.spawn([...npmScript("check:deno")], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, errors] = await Promise.all([check.exited, new Response(check.stderr).text()]);
  expect(errors).not.toMatch(/\bTS\d{4}\b|error:/i);
  expect(code).toBe(0);
  expect(errors).toContain("Check core/quota.ts");
  expect(errors).toContain("Check adapters/store-redis/redis-store.ts");
}, 120_000);

test("a bad config under Deno: exit 1 with the problem list, secret hidden", async () => {
  const { code, output } = await runToExit({
    command: DENO_ENTRY,
    env: { PORT: "-5", REDIS_URL: "nope hunter2" },
    timeoutMs: 60_000,
  });
  expect(code).toBe(1);
  expect(output).toContain("Invalid configuration");
  expect(output).toContain("PORT:");
  expect(output).toContain("REDIS_URL:");
  expect(output).not.toContain("hunter2");
}, 90_000);
