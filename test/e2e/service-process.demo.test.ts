/**
 * The first-run path of the README, on the real process with nothing configured: a fresh
 * working dir gets the demo chain (.data/localnet.json) and an index of the README; the pay
 * CLI buys queries on that chain, and the service answers questions about itself with sources.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type ServiceProcess, startService } from "../support/service-process.ts";

let service: ServiceProcess | undefined;

const call = (path: string, body?: unknown) => service!.call(path, body);

/** `bun src/cli/pay.ts ...args`: its exit code, stdout and stderr. */
const pay = async (args: ReadonlyArray<string>) => {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src/cli/pay.ts"), ...args], {
    cwd: service!.cwd,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr };
};

beforeAll(async () => {
  service = await startService({ env: {} });
});
afterAll(async () => {
  await service?.dispose();
});

test("with nothing configured: demo chain, README index, and a warning for each default", async () => {
  const stateFile = join(service!.cwd, ".data/localnet.json");
  expect(existsSync(stateFile)).toBe(true);
  expect(existsSync(join(service!.cwd, ".data/index.bin"))).toBe(true);
  const warnings = service!
    .logs()
    .filter((line) => line.level === "WARN")
    .map((line) => String(line.msg));
  expect(warnings.some((msg) => msg.startsWith("no CHAIN_NETWORK configured"))).toBe(true);
  expect(warnings.some((msg) => msg.startsWith("no index found"))).toBe(true);
  expect(warnings.some((msg) => msg.startsWith("no LLM_API_KEY"))).toBe(true);
});

test("payment/info names localnet; the pay CLI's signature buys 50 queries once", async () => {
  const info = await (await call("/api/payment/info")).json();
  expect(info).toMatchObject({ network: "localnet", token: "USDC" });
  expect(info.memo).toMatch(/^docschat:/);
  const before = (await (await call("/api/status")).json()).remaining;

  const stateFile = join(service!.cwd, ".data/localnet.json");
  const sent = await pay(["--amount", "0.05", "--state-file", stateFile, "--memo", info.memo]);
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
  const stateFile = join(service!.cwd, ".data/localnet.json");
  const sent = await pay(["--amount", "0.0000001", "--state-file", stateFile]);
  expect(sent.code).not.toBe(0);
  expect(sent.stdout).toBe("");
  expect(sent.stderr).toContain("--amount");
}, 30_000);

test("chat answers a question about the README with sources from it", async () => {
  const res = await call("/api/chat", { message: "How do I pay for more questions?" });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.success).toBe(true);
  expect(body.sources.length).toBeGreaterThan(0);
  expect(body.sources.every((source: { source: string }) => source.source === "README.md")).toBe(true);
  expect(body.response).toMatch(/pay/i);
  expect(body.response).toMatch(/\[\d+\]/); // cites its sources

  const empty = await call("/api/chat", { message: "   " });
  expect(empty.status).toBe(400);
  expect(await empty.json()).toMatchObject({ success: false, error: "Message cannot be empty" });
}, 30_000);
