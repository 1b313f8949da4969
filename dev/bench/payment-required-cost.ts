/**
 * What one chat 402 costs in CPU (`bun dev/bench/payment-required-cost.ts`, in process, no
 * network): the real app (x402 v2 offered, offers signed, bazaar, sign-in offered) against a
 * bare Hono route answering the same 402 body and headers. In-process req/s of both, taking
 * turns, so the ratio is the inverse ratio of their CPU per request (a loaded machine slows
 * both alike). Run it under `bun --cpu-prof-md` to see where a 402 goes (docs/performance.md).
 */
import { Hono } from "hono";
import { receiptKeyOf } from "../../src/payments/offer-receipt/receipt-key.ts";
import { buildTestApp } from "../../test/support/test-app.ts";
import { offlineFacilitator } from "../../test/support/x402-v2.ts";

const REQUESTS = 4000;
const ROUNDS = 3;
const t = buildTestApp({
  freeQueries: 0,
  facilitator: await offlineFacilitator(),
  receiptKey: receiptKeyOf(new Uint8Array(32).fill(7), "https://docs.example"),
  surface: { publicOrigin: "https://docs.example" },
  protectionRps: 1e9,
});
const ask = () => ({
  method: "POST",
  headers: { "Content-Type": "application/json", Host: "docs.example" },
  body: '{"message":"hi"}',
});
const first = await t.call("/api/chat", ask());
const body = await first.text();
const headers = [...first.headers];
const sizes = headers.map(([name, value]) => `${name} ${value.length}`).join(", ");
console.log(`a ${first.status}: body ${body.length} characters; headers: ${sizes}`);
const bare = new Hono().post("/api/chat", async (c) => {
  await c.req.json();
  return new Response(body, { status: 402, headers });
});
const perSecond = async (send: (i: number) => Response | Promise<Response>) => {
  for (let i = 0; i < 500; i++) await (await send(i)).text();
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) await (await send(i)).text();
  return (REQUESTS / (performance.now() - started)) * 1000;
};
for (let round = 0; round < ROUNDS; round++) {
  const app = await perSecond((i) => t.call("/api/chat", ask(), `198.51.100.${i % 200}`));
  const base = await perSecond(() => bare.request("/api/chat", ask()));
  console.log(
    `round ${round}: app ${app.toFixed(0)} req/s, bare Hono ${base.toFixed(0)} req/s, ratio ${(app / base).toFixed(3)}x`,
  );
}
await t.dispose();
