/**
 * `npm run mcp` as a user runs it against `npm start` (the demo chain, nothing configured): it
 * lists the tools, asks, and once the free question is used up signs in with the demo payer (which
 * has no credits yet), then pays the PaymentRequired result and prints the answer and the settlement.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { demoChainBalances, ONE_PAYMENT } from "../support/money-moved.ts";
import { runCli, type ServiceProcess, startService } from "../support/service-process.ts";

let service: ServiceProcess | undefined;

/** `bun dev/cli/mcp.ts ...args` in the service's folder. */
const mcp = (args: ReadonlyArray<string>) => runCli(service!, "dev/cli/mcp.ts", args);

beforeAll(async () => {
  service = await startService({ env: { RATE_LIMIT_FREE_QUERIES: "1" } });
}, 60_000);
afterAll(async () => {
  await service?.dispose();
});

test("tools, then a free answer, then a paid one with its settlement", async () => {
  const tools = await mcp(["tools"]);
  expect(tools.code).toBe(0);
  expect(tools.stdout).toContain("ask_docs:");
  expect(tools.stdout).toContain("search_docs:");
  const free = await mcp(["ask", "How do I pay for more questions?"]);
  expect(free.code).toBe(0);
  expect(free.stdout).toContain("Sources:");
  expect(free.stderr).not.toContain("settlement");
  const moved = await demoChainBalances(service!);
  const paid = await mcp(["ask", "How do I pay for more questions?"]);
  expect(paid.code).toBe(0);
  expect(paid.stdout).toContain("Sources:");
  expect(paid.stderr).toContain("signing in as");
  expect(paid.stderr).not.toContain("nothing paid");
  expect(paid.stderr).toContain("paying 10000 base units");
  expect(paid.stderr).toMatch(/settlement: \{"success":true/);
  // Exactly what moved: 0.01 USDC from the payer to the service, the sponsor's fee once.
  expect(await moved()).toEqual(ONE_PAYMENT);
}, 60_000);

test("bad usage exits 2 with the usage text", async () => {
  const bad = await mcp(["ask"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("usage: npm run mcp");
});
