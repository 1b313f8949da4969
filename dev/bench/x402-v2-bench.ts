/**
 * x402 v2 settlement latency: a paid GET /premium-data on the example server with
 * PAYMENT-SIGNATURE (payload decode, transaction rules, store lookup, co-sign, simulation,
 * atomic claim, handler, submit, confirmation on the local chain) beside the same route paid
 * with the spec's X-Payment-Authorization (the client already broadcast), interleaved, fresh
 * payments each time (payloads are built outside the timed part). The ratio is what the
 * service-side settlement costs over verifying a transfer the client sent itself.
 */
import { startTestChain } from "../../test/support/localnet.ts";
import { startExampleServer } from "../../test/support/x402-example.ts";
import { officialPaymentHeader } from "../../test/support/x402-v2.ts";
import { fmt, summary } from "./stats.ts";

const N = Number(process.env.BENCH_PAYMENTS ?? 150);
const chain = await startTestChain();
const server = await startExampleServer(chain, { v2: true });
const payer = await chain.fundPayer({ usdcUnits: 1_000_000_000n });
const wallet = { signer: payer, rpcUrl: chain.url, mint: chain.mint };

const timedGet = async (headers: Record<string, string>, what: string) => {
  const started = performance.now();
  const res = await fetch(`${server.url}/premium-data`, { headers });
  if (res.status !== 200) throw new Error(`${what} refused: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - started;
};

const spec: number[] = [];
const v2: number[] = [];
console.log(`${N} payments of each dialect, interleaved...`);
for (let i = 0; i < N + 10; i++) {
  const { header } = await server.pay("/premium-data", payer);
  const signed = await officialPaymentHeader(wallet, await fetch(`${server.url}/premium-data`));
  const specMs = await timedGet({ "X-Payment-Authorization": header }, `spec payment ${i}`);
  const v2Ms = await timedGet({ "PAYMENT-SIGNATURE": signed }, `v2 payment ${i}`);
  // The first ten warm both paths up.
  if (i >= 10) {
    spec.push(specMs);
    v2.push(v2Ms);
  }
}
const s = summary(spec);
const v = summary(v2);
console.log(`\nx402 paid GET /premium-data, ${N} fresh payments each, sequential, loopback, local chain`);
console.log(`  X-Payment-Authorization (client sent the transfer)   p50 ${fmt(s.p50)}   p99 ${fmt(s.p99)}`);
console.log(`  PAYMENT-SIGNATURE (we co-sign, submit, confirm)      p50 ${fmt(v.p50)}   p99 ${fmt(v.p99)}`);
console.log(
  `  ratio v2 / spec                                       p50 ${(v.p50 / s.p50).toFixed(2)}x   p99 ${(v.p99 / s.p99).toFixed(2)}x`,
);
await server.stop();
await chain.stop();
