/**
 * `npm run mcp -- ask` names its payment with an x402 payment identifier and, when the paid call
 * meets a network error, sends the very same payload again: against `npm start` (the demo
 * chain) behind a proxy that loses the first paid response after the service answered it (as a
 * load balancer whose upstream connection dropped answers 502), the second send gets the answer
 * and the payment is charged once: the demo payer's USDC, the service wallet's USDC and the fee
 * payer's SOL, exactly.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type LosingProxy, startLosingProxy } from "../support/losing-proxy.ts";
import { demoChainBalances, ONE_PAYMENT } from "../support/money-moved.ts";
import { runCli, type ServiceProcess, startService } from "../support/service-process.ts";

let service: ServiceProcess | undefined;
let proxy: LosingProxy | undefined;

beforeAll(async () => {
  service = await startService({ env: { RATE_LIMIT_FREE_QUERIES: "1" } });
  proxy = startLosingProxy({
    upstream: service.url,
    isPaid: (_request, body) => body?.includes('"x402/payment"') === true,
    // The service answered (and settled); the client never sees it.
    lost: () => new Response("upstream connection reset", { status: 502 }),
  });
}, 60_000);
afterAll(async () => {
  await proxy?.stop();
  await service?.dispose();
});

test("a paid ask whose response is lost is sent again with the same payment: answered, charged once", async () => {
  if (service === undefined || proxy === undefined) throw new Error("the service did not start");
  const mcp = (args: ReadonlyArray<string>) =>
    runCli(service!, "dev/cli/mcp.ts", ["--url", `http://127.0.0.1:${proxy!.port}/mcp`, ...args]);
  expect((await mcp(["ask", "How do I pay for more questions?"])).code).toBe(0);
  const moved = await demoChainBalances(service);
  const paid = await mcp(["ask", "How do I pay for more questions?"]);
  expect(paid.code).toBe(0);
  expect(paid.stdout).toContain("Sources:");
  expect(paid.stderr).toMatch(/payment id pay_[0-9a-f]{32}/);
  expect(paid.stderr).toContain("sending the same payment again");
  expect(paid.stderr).toMatch(/settlement: \{"success":true/);
  expect(proxy.paidSends()).toBe(2);
  // 0.01 USDC once; the fee payer pays two signatures and the official client's 1 lamport of priority.
  expect(await moved()).toEqual(ONE_PAYMENT);
}, 60_000);
