/**
 * The first-run path of the README, on the real process with nothing configured: a fresh
 * working dir gets the demo chain (its state in .data/localnet-<PORT>.json) and an index of
 * the README and docs/; the pay CLI buys queries on that chain, and the service answers questions about
 * itself with sources. A second service in the same folder keeps its own chain and state
 * file; a stopped one removes its file, a killed one leaves it stale and the pay CLI says so.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, runCli, type ServiceProcess, startService } from "../support/service-process.ts";

let service: ServiceProcess | undefined;

const call = (path: string, body?: unknown) => service!.call(path, body);

/** This service's demo chain state file. */
const stateFileOf = (of: ServiceProcess) => join(of.cwd, `.data/localnet-${of.port}.json`);

/** `bun dev/cli/pay.ts ...args` in the service's folder (PORT given as `port`): its exit code, stdout and stderr. */
const pay = (args: ReadonlyArray<string>, port = service!.port) =>
  runCli(service!, "dev/cli/pay.ts", args, port);

beforeAll(async () => {
  service = await startService({ env: {} });
});
afterAll(async () => {
  await service?.dispose();
});

test("with nothing configured: demo chain, README index, and a warning for each default", async () => {
  expect(existsSync(stateFileOf(service!))).toBe(true);
  expect(existsSync(join(service!.cwd, ".data/index.bin"))).toBe(true);
  const warnings = service!
    .logs()
    .filter((line) => line.level === "WARN")
    .map((line) => String(line.msg));
  expect(warnings.some((msg) => msg.startsWith("no CHAIN_NETWORK configured"))).toBe(true);
  expect(warnings.some((msg) => msg.startsWith("no index found"))).toBe(true);
  expect(warnings.some((msg) => msg.startsWith("no LLM_API_KEY"))).toBe(true);
  // x402 v2 is offered on the demo chain, so its sponsored settlements' reconciler runs.
  const started = service!.logs().map((line) => String(line.msg));
  expect(started.some((msg) => msg.startsWith("x402 v2 reconciler started"))).toBe(true);
});

test("payment/info names localnet; the pay CLI's signature buys 50 queries once", async () => {
  const info = await (await call("/api/payment/info")).json();
  expect(info).toMatchObject({ network: "localnet", token: "USDC" });
  expect(info.memo).toMatch(/^docschat:/);
  const before = (await (await call("/api/status")).json()).remaining;

  // As the README says: only the amount and the memo; the state file is found from PORT.
  const sent = await pay(["--amount", "0.05", "--memo", info.memo]);
  expect(sent.code).toBe(0);
  expect(sent.stdout).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

  const res = await call("/api/payment", { signature: sent.stdout, amount: 0.05, token: "USDC" });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ success: true, signature: sent.stdout, queriesGranted: 50 });
  expect((await (await call("/api/status")).json()).remaining).toBe(before + 50);
  const replay = await call("/api/payment", { signature: sent.stdout, amount: 0.05, token: "USDC" });
  expect((await replay.json()).code).toBe("SIGNATURE_ALREADY_USED");
}, 30_000);

test("the pay CLI refuses a bad amount and sends nothing", async () => {
  const sent = await pay(["--amount", "0.0000001", "--state-file", stateFileOf(service!)]);
  expect(sent.code).not.toBe(0);
  expect(sent.stdout).toBe("");
  expect(sent.stderr).toContain("--amount");
}, 30_000);

test("chat answers a question about the project with sources from its README and docs/", async () => {
  const res = await call("/api/chat", { message: "How do I pay for more questions?" });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.success).toBe(true);
  expect(body.sources.length).toBeGreaterThan(0);
  const demoDocs = [
    "README.md",
    ...readdirSync(join(REPO_ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
  ];
  for (const { source } of body.sources as ReadonlyArray<{ source: string }>)
    expect(demoDocs).toContain(source);
  expect(body.response).toMatch(/pay/i);
  expect(body.response).toMatch(/\[\d+\]/); // cites its sources

  const empty = await call("/api/chat", { message: "   " });
  expect(empty.status).toBe(400);
  expect(await empty.json()).toMatchObject({ success: false, error: "Message cannot be empty" });
}, 30_000);

test("a second service in the same folder keeps its own chain; stopped, it removes its state file", async () => {
  const first = await Bun.file(stateFileOf(service!)).json();
  const second = await startService({ env: {}, cwd: service!.cwd });
  try {
    const own = await Bun.file(stateFileOf(second)).json();
    expect(own.rpcUrl).not.toBe(first.rpcUrl);
    expect(own.pid).toBe(second.pid);
    expect(await Bun.file(stateFileOf(service!)).json()).toEqual(first); // not overwritten
    const sent = await pay(["--amount", "0.01"], second.port);
    expect(sent.code).toBe(0);
    const paid = await second.call("/api/payment", { signature: sent.stdout, amount: 0.01, token: "USDC" });
    expect(paid.status).toBe(200);
    expect(await second.stop()).toBe(0);
    expect(existsSync(stateFileOf(second))).toBe(false);
    expect(existsSync(stateFileOf(service!))).toBe(true);
  } finally {
    await second.kill();
  }
}, 60_000);

test("a killed service leaves its state file; the pay CLI calls it stale instead of timing out", async () => {
  const killed = await startService({ env: {}, cwd: service!.cwd });
  const { rpcUrl } = await Bun.file(stateFileOf(killed)).json();
  await killed.kill();
  const sent = await pay(["--amount", "0.01"], killed.port);
  expect(sent.code).toBe(1);
  expect(sent.stderr).toContain(`.data/localnet-${killed.port}.json is stale`);
  expect(sent.stderr).toContain(`pid ${killed.pid}, ${rpcUrl}`);
}, 60_000);
