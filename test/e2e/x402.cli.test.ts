/**
 * The README's x402 path on real processes with nothing configured: `npm run example:x402`
 * (its own local chain) and `npm start` (the chat service), each paid by `npm run x402` with the
 * demo payer of the local chain that server uses, found from the 402 alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { decodeReceiptHeader } from "../../core/payments/x402-receipt.ts";
import { demoChainBalances } from "../support/money-moved.ts";
import { REPO_ROOT, type ServiceProcess, startService } from "../support/service-process.ts";

const EXAMPLE_ENTRY = [process.execPath, join(REPO_ROOT, "examples/x402/main.ts")];

/** `bun dev/cli/x402.ts ...args` in `cwd`: exit code, stdout, stderr. */
const x402 = async (cwd: string, args: ReadonlyArray<string>) => {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "dev/cli/x402.ts"), ...args], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", NO_COLOR: "1" },
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr };
};
/** The receipt line the CLI prints, checked against the receipt schema. */
const receiptIn = (stderr: string) => {
  const line = /receipt: (.*)/.exec(stderr)?.[1] ?? "";
  return decodeReceiptHeader(btoa(line));
};

describe("npm run x402 against npm run example:x402", () => {
  let example: ServiceProcess | undefined;
  beforeAll(async () => {
    example = await startService({ command: EXAMPLE_ENTRY, readyPath: "/" });
  });
  afterAll(() => example?.dispose());

  test("pays a priced route, prints the body and the receipt", async () => {
    const server = example as ServiceProcess;
    const run = await x402(server.cwd, [`${server.url}/premium-data`]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      paid: true,
      receipt: { amount: "0.10", resource: "/premium-data" },
    });
    expect(run.stderr).toContain("paid 0.10 USDC for /premium-data");
    expect(run.stderr).toContain("HTTP 200");
    expect(receiptIn(run.stderr)).toMatchObject({ amount: "0.10", network: "chain-devnet" });
    const listening = server.logs().find((line) => line.msg === "x402 example server listening");
    expect(listening).toMatchObject({ network: "chain-devnet" });
  });

  test("exits 3 without paying when the price is above --max; free routes pass through", async () => {
    const server = example as ServiceProcess;
    const capped = await x402(server.cwd, ["--max", "0.50", `${server.url}/expensive-data`]);
    expect(capped.code).toBe(3);
    expect(capped.stderr).toContain("above MaxPaymentAmount 0.50");
    expect(capped.stderr).not.toMatch(/^paid /m);
    const free = await x402(server.cwd, [`${server.url}/free-data`]);
    expect(free.code).toBe(0);
    expect(JSON.parse(free.stdout)).toMatchObject({ paid: false });
  });

  test("--authorization-only prints a header that curl-style clients send themselves, once", async () => {
    const server = example as ServiceProcess;
    const run = await x402(server.cwd, ["--authorization-only", `${server.url}/tiered-data/basic`]);
    expect(run.code).toBe(0);
    const header = run.stdout;
    expect(JSON.parse(atob(header))).toMatchObject({ actual_amount: "0.05" });
    const paid = await fetch(`${server.url}/tiered-data/basic`, {
      headers: { "X-Payment-Authorization": header },
    });
    expect(paid.status).toBe(200);
    const again = await fetch(`${server.url}/tiered-data/basic`, {
      headers: { "X-Payment-Authorization": header },
    });
    expect(again.status).toBe(403);
    const free = await x402(server.cwd, ["--authorization-only", `${server.url}/free-data`]);
    expect(free.code).toBe(1);
  });

  test("bad usage exits 2; a server whose chain it cannot find is not paid", async () => {
    const server = example as ServiceProcess;
    expect((await x402(server.cwd, [])).code).toBe(2);
    expect((await x402(server.cwd, ["--network", "moon", `${server.url}/premium-data`])).code).toBe(2);
    const elsewhere = await x402("/tmp", [`${server.url}/premium-data`]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain("pay with --keypair");
  });
});

describe("npm run x402 against npm start (/api/chat paid in-band)", () => {
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    service = await startService({ env: { RATE_LIMIT_FREE_QUERIES: "0" } });
  });
  afterAll(() => service?.dispose());

  test("the exhausted quota is paid and the question answered in the same call", async () => {
    const server = service as ServiceProcess;
    const question = JSON.stringify({ message: "How do I pay for more questions?" });
    const moved = await demoChainBalances(server);
    const run = await x402(server.cwd, ["-d", question, `${server.url}/api/chat`]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("paid 0.01 USDC for /api/chat");
    const body = JSON.parse(run.stdout) as { success: boolean; rateLimit: { remaining: number } };
    expect(body).toMatchObject({ success: true, rateLimit: { remaining: 9 } });
    expect(receiptIn(run.stderr)).toMatchObject({ amount: "0.01", resource: "/api/chat" });
    // The spec's dialect: the payer sends its own transfer (and pays its fee); the sponsor pays nothing.
    expect(await moved()).toEqual({ payer: -10_000n, service: 10_000n, feePayerSol: 0n });
  });
});
