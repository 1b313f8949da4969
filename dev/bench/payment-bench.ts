/**
 * Verification latency: POST /api/payment of the real app (over loopback HTTP, memory store,
 * ChainSolana on the local chain) beside the raw getTransaction call it makes, measured in the
 * same run on fresh transfers. Goal: p99 overhead <= 5 ms above the RPC call.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { createApp } from "../../src/app.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import { appLayer, defaultConfig } from "../../src/runtime/app-layer.ts";
import { startTestChain } from "../../test/support/localnet.ts";
import { makeSwitches, scriptedRetriever } from "../../test/support/test-layers.ts";
import { timedGetTransaction } from "./raw-rpc.ts";
import { overheadFigures, record } from "./report.ts";
import { fmt, summary } from "./stats.ts";

const N = Number(process.env.BENCH_PAYMENTS ?? 300);
const chain = await startTestChain();
const config = defaultConfig({ ceilings: { ...defaultConfig().ceilings, "protection-limit": 1_000_000 } });
const logger = makeLogger(() => undefined);
const paidChain = {
  network: "localnet" as const,
  usdcMint: chain.mint,
  wallet: chain.serviceWallet,
  rpcUrl: chain.url,
  walletSecretKey: undefined,
};
const runtime = ManagedRuntime.make(
  appLayer(config, paidChain, logger, { retrieval: scriptedRetriever(makeSwitches()) }).pipe(Layer.orDie),
);
await runtime.runPromise(Effect.void);
const app = createApp({ runtime, config, logger, metrics: makeMetrics() });
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req, srv) => app.fetch(req, { remoteAddress: srv.requestIP(req)?.address }),
});

console.log(`preparing ${N} transfers on the local chain...`);
const signatures: string[] = [];
for (let i = 0; i < N; i++) signatures.push(await chain.sendUsdc({ units: 10_000n }));

const rpcCall = (signature: string) => timedGetTransaction(chain.url, signature);
const payCall = async (signature: string, i: number) => {
  const started = performance.now();
  const res = await fetch(`${server.url}api/payment`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ signature, amount: 0.01, token: "USDC" }),
  });
  if (res.status !== 200) throw new Error(`payment ${i} failed: ${res.status} ${await res.text()}`);
  return performance.now() - started;
};

// Warm both paths, then interleave them so machine noise hits both alike.
for (const signature of signatures.slice(0, 20)) await rpcCall(signature);
const rpc: number[] = [];
const pay: number[] = [];
for (const [i, signature] of signatures.entries()) {
  rpc.push(await rpcCall(signature));
  pay.push(await payCall(signature, i));
}
const r = summary(rpc);
const p = summary(pay);
console.log(`\nPayment verification, ${N} fresh transfers, sequential, loopback`);
console.log(`  raw getTransaction (jsonParsed)   p50 ${fmt(r.p50)}   p99 ${fmt(r.p99)}`);
console.log(`  POST /api/payment (whole service)  p50 ${fmt(p.p50)}   p99 ${fmt(p.p99)}`);
console.log(
  `  overhead                          p50 +${fmt(p.p50 - r.p50)}   p99 +${fmt(p.p99 - r.p99)}   (goal p99 <= +5 ms)`,
);
record("payment", {
  title: "Payment verification overhead",
  method: `${N} fresh transfers on the local chain, sequential, loopback; the raw getTransaction (jsonParsed) call the verifier makes, measured in the same run, interleaved with the payments.`,
  figures: overheadFigures("POST /api/payment", p, r, 5),
});
server.stop(true);
await runtime.dispose();
await chain.stop();
