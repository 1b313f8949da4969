/**
 * `npm run x402 -- --v2` against `npm start` (the demo chain): it pays /api/chat's x402 v2 offer
 * with the official client, naming the payment with an x402 payment identifier; behind a proxy
 * that cuts the connection in the middle of the first paid response (after the service answered
 * and settled), it sends the very same payment again and gets the answer, charged once: the demo
 * payer's USDC, the service wallet's USDC and the fee payer's SOL, exactly.
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
    isPaid: (request) => request.headers.has("PAYMENT-SIGNATURE"),
    // The service answered (and settled); the connection breaks before the client reads the body.
    lost: () =>
      new Response(
        new ReadableStream({ pull: (controller) => controller.error(new Error("connection reset")) }),
        {
          status: 200,
          headers: { "Content-Type": "application/json" },
        },
      ),
  });
}, 60_000);
afterAll(async () => {
  await proxy?.stop();
  await service?.dispose();
});

test("a paid question whose response is cut is sent again with the same payment: answered, charged once", async () => {
  if (service === undefined || proxy === undefined) throw new Error("the service did not start");
  const ask = () =>
    runCli(service!, "dev/cli/x402.ts", [
      "--v2",
      "-d",
      '{"message":"How do I pay for more questions?"}',
      `http://127.0.0.1:${proxy!.port}/api/chat`,
    ]);
  expect((await ask()).code).toBe(0);
  const moved = await demoChainBalances(service);
  const paid = await ask();
  expect(paid.stderr).toMatch(/payment id pay_[0-9a-f]{32}/);
  expect(paid.stderr).toContain("sending the same payment again");
  expect(paid.stderr).toMatch(/settlement: \{"success":true/);
  expect(paid.code).toBe(0);
  expect(JSON.parse(paid.stdout)).toMatchObject({ success: true });
  expect(proxy.paidSends()).toBe(2);
  // 0.01 USDC once; the fee payer pays two signatures and the official client's 1 lamport of priority.
  expect(await moved()).toEqual(ONE_PAYMENT);
}, 60_000);
