/**
 * HTTP 402 verification latency: a paid GET /premium-data on the example server (over loopback
 * HTTP, memory store, the local chain: header decode, ed25519 check, payment_id lookup, chain
 * verification, atomic claim, handler, receipt) beside the raw getTransaction call it makes,
 * on fresh payments, interleaved. Compared with POST /api/payment's goal: p99 <= +5 ms.
 */
import { startTestChain } from "../../test/support/localnet.ts";
import { startExampleServer } from "../../test/support/x402-example.ts";
import { timedGetTransaction } from "./raw-rpc.ts";
import { overheadFigures, record } from "./report.ts";
import { fmt, summary } from "./stats.ts";

const N = Number(process.env.BENCH_PAYMENTS ?? 300);
const chain = await startTestChain();
const server = await startExampleServer(chain);

console.log(`preparing ${N} paid authorizations on the local chain...`);
const paid: Array<{ readonly signature: string; readonly header: string }> = [];
for (let i = 0; i < N; i++) paid.push(await server.pay("/premium-data"));

const paidGet = async (header: string, i: number) => {
  const started = performance.now();
  const res = await server.get("/premium-data", header);
  if (res.status !== 200) throw new Error(`payment ${i} refused: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - started;
};

for (const { signature } of paid.slice(0, 20)) await timedGetTransaction(chain.url, signature);
const rpc: number[] = [];
const x402: number[] = [];
for (const [i, { signature, header }] of paid.entries()) {
  rpc.push(await timedGetTransaction(chain.url, signature));
  x402.push(await paidGet(header, i));
}
const r = summary(rpc);
const p = summary(x402);
console.log(`\nx402 verification, ${N} fresh payments, sequential, loopback`);
console.log(`  raw getTransaction (jsonParsed)        p50 ${fmt(r.p50)}   p99 ${fmt(r.p99)}`);
console.log(`  paid GET /premium-data (example app)   p50 ${fmt(p.p50)}   p99 ${fmt(p.p99)}`);
console.log(
  `  overhead                               p50 +${fmt(p.p50 - r.p50)}   p99 +${fmt(p.p99 - r.p99)}`,
);
record("x402", {
  title: "HTTP 402 verification overhead",
  method: `${N} fresh payments of the example server's paid GET /premium-data (header decode, ed25519 check, payment_id lookup, chain verification, atomic claim, handler, receipt), memory store, loopback, interleaved with the raw getTransaction call it makes; held to POST /api/payment's goal.`,
  figures: overheadFigures("paid GET /premium-data", p, r, 5),
});
await server.stop();
await chain.stop();
