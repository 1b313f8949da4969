/**
 * chain_rpc_calls_total{method,cause}: each RPC call the service sends to the local chain is
 * counted once, with the cause that made it, and the counts agree with the chain's own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { encodeBase58 } from "../../core/base58.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import { createFeePayer } from "../../src/payments/v2/fee-payer.ts";
import type { OnRpcCall } from "../../src/solana/rpc-calls.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { testApps } from "../support/test-app.ts";

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.stop());
const build = testApps();

/** The counter's value for one method and cause in /metrics' text (0 when absent). */
const counted = (text: string, method: string, cause: string) => {
  const line = text
    .split("\n")
    .find((row) => row.startsWith(`chain_rpc_calls_total{method="${method}",cause="${cause}"} `));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
};

const counting = () => {
  const metrics = makeMetrics();
  const onRpcCall: OnRpcCall = (method, cause) => metrics.count("chain_rpc_calls_total", { method, cause });
  return { metrics, onRpcCall };
};

describe("chain_rpc_calls_total", () => {
  test("a payment lookup counts as verify, /readyz's ping as readiness, as the chain saw them", async () => {
    const { metrics, onRpcCall } = counting();
    const reader = ChainSolana.fromUrl({ rpcUrl: chain.url, onRpcCall });
    const before = ["getTransaction", "getSignatureStatuses", "getSlot"].map(chain.localnet.calls);
    await Effect.runPromise(reader.lookup(encodeBase58(crypto.getRandomValues(new Uint8Array(64)))));
    await Effect.runPromise(reader.ping);
    const text = metrics.render();
    const [transactions, statuses, slots] = ["getTransaction", "getSignatureStatuses", "getSlot"].map(
      (method, i) => chain.localnet.calls(method) - (before[i] ?? 0),
    );
    expect(counted(text, "getTransaction", "verify")).toBe(transactions ?? -1);
    expect(counted(text, "getSignatureStatuses", "verify")).toBe(statuses ?? -1);
    expect(counted(text, "getSlot", "readiness")).toBe(slots ?? -1);
    expect([transactions, statuses, slots]).toEqual([1, 1, 1]);
  });

  test("the fee payer's calls count as sponsor", async () => {
    const { metrics, onRpcCall } = counting();
    const before = chain.localnet.calls("getLatestBlockhash");
    await createFeePayer(chain.payer, chain.url, () => {}, onRpcCall).warmBlockhashHint();
    expect(chain.localnet.calls("getLatestBlockhash") - before).toBe(1);
    expect(counted(metrics.render(), "getLatestBlockhash", "sponsor")).toBe(1);
  });

  test("the widget's relay counts each forwarded call as relay on /metrics", async () => {
    const t = build({ relayRpcUrl: chain.url });
    const before = chain.localnet.calls("getLatestBlockhash");
    const response = await t.call("/api/solana-rpc", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getLatestBlockhash", params: [] }),
    });
    expect(response.status).toBe(200);
    expect(chain.localnet.calls("getLatestBlockhash") - before).toBe(1);
    expect(counted(await t.metricsText(), "getLatestBlockhash", "relay")).toBe(1);
  });
});
