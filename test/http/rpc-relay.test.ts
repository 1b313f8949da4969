/**
 * The widget's RPC relay (/api/solana-rpc) on the real app, against a loopback JSON-RPC upstream
 * that records every call it gets: the widget's own three calls pass through the widget's own
 * client; hostile params (a history of 1000 signatures, 256 statuses, other methods, a transaction
 * that does not pay this service) are refused without a single upstream call; a burst is held to
 * the per-client and the global budget, exactly, and every outcome is counted in /metrics.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { address, type Blockhash, generateKeyPairSigner, getSignatureFromTransaction } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { signInstructions, usdcTransferInstructions, wireOf } from "../../src/solana/usdc-transfer.ts";
import { relayRpc } from "../../src/widget/pay/chain.ts";
import { OTHER_MINT, STRANGER, USDC_MINT, WALLET } from "../support/parsed-tx.ts";
import { addressOf } from "../support/test-addresses.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

interface RpcCall {
  readonly method: string;
  readonly params: ReadonlyArray<unknown>;
}
const calls: RpcCall[] = [];
const BLOCKHASH = addressOf(9);
let upstream: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      const { id, method, params } = (await request.json()) as RpcCall & { id: unknown };
      calls.push({ method, params });
      const result =
        method === "getLatestBlockhash"
          ? { context: { slot: 1 }, value: { blockhash: BLOCKHASH, lastValidBlockHeight: 100 } }
          : method === "sendTransaction"
            ? "5".repeat(88)
            : [];
      return Response.json({ jsonrpc: "2.0", id, result });
    },
  });
});
afterAll(() => upstream?.stop(true));

const build = testApps();
const relayed = (options: Parameters<typeof build>[0] = {}) =>
  build({ relayRpcUrl: `http://127.0.0.1:${upstream.port}`, ...options });

const send = (t: TestApp, body: unknown, from?: string) =>
  t.call(
    "/api/solana-rpc",
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
    from,
  );

/** A signed transfer of `units` of `mint` to `to`, in base64 wire form, as a wallet would send it. */
const usdcTransfer = async (to: string, mint: string, units = 10_000n) => {
  const payer = await generateKeyPairSigner();
  const instructions = await usdcTransferInstructions({
    payer,
    from: payer,
    to: address(to),
    mint: address(mint),
    units,
    decimals: 6,
    memo: "docschat:test",
  });
  const signed = await signInstructions(payer, instructions, {
    blockhash: BLOCKHASH as Blockhash,
    lastValidBlockHeight: 100n,
  });
  return { wire: wireOf(signed), signature: getSignatureFromTransaction(signed) };
};

const solTransfer = async () => {
  const payer = await generateKeyPairSigner();
  const instruction = getTransferSolInstruction({
    source: payer,
    destination: address(WALLET),
    amount: 1_000_000n,
  });
  return wireOf(
    await signInstructions(payer, [instruction], {
      blockhash: BLOCKHASH as Blockhash,
      lastValidBlockHeight: 100n,
    }),
  );
};

describe("what the widget calls passes", () => {
  test("blockhash, reference lookup and its payment, through the widget's own client", async () => {
    const t = relayed();
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => t.app.fetch(request, { remoteAddress: "203.0.113.7" }),
    });
    try {
      calls.length = 0;
      const rpc = relayRpc(`http://127.0.0.1:${server.port}`);
      const { value } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
      expect(value.blockhash).toBe(BLOCKHASH as Blockhash);
      const reference = (await generateKeyPairSigner()).address;
      expect(
        await rpc.getSignaturesForAddress(reference, { limit: 5, commitment: "confirmed" }).send(),
      ).toEqual([]);
      const { wire } = await usdcTransfer(WALLET, USDC_MINT);
      const sent = await rpc
        .sendTransaction(wire as never, { encoding: "base64", preflightCommitment: "confirmed" })
        .send();
      expect(sent).toBe("5".repeat(88) as never);
      expect(calls).toEqual([
        { method: "getLatestBlockhash", params: [{ commitment: "confirmed" }] },
        { method: "getSignaturesForAddress", params: [reference, { limit: 5, commitment: "confirmed" }] },
        {
          method: "sendTransaction",
          params: [wire, { encoding: "base64", preflightCommitment: "confirmed" }],
        },
      ]);
      const metrics = await t.metricsText();
      for (const method of ["getLatestBlockhash", "getSignaturesForAddress", "sendTransaction"])
        expect(metrics).toContain(`rpc_relay_calls_total{method="${method}",outcome="forwarded"} 1`);
    } finally {
      await server.stop(true);
    }
  });

  test("a lookup without a limit gets the widget's small one, never the RPC's 1000", async () => {
    const t = relayed();
    calls.length = 0;
    const response = await send(t, {
      jsonrpc: "2.0",
      id: 1,
      method: "getSignaturesForAddress",
      params: [STRANGER],
    });
    expect(response.status).toBe(200);
    expect(calls).toEqual([{ method: "getSignaturesForAddress", params: [STRANGER, { limit: 10 }] }]);
  });
});

describe("hostile calls are refused before the upstream", () => {
  // 150 fit in a body (256, the RPC's maximum, are refused by the 16 KiB body limit already).
  const signatures = Array.from({ length: 150 }, (_, i) => `${"1".repeat(60)}${String(i).padStart(4, "2")}`);

  test.each([
    ["a history of 1000 signatures", "getSignaturesForAddress", [STRANGER, { limit: 1000 }], -32602],
    [
      "a lookup with an unknown option",
      "getSignaturesForAddress",
      [STRANGER, { limit: 5, before: "x" }],
      -32602,
    ],
    ["a lookup of something that is no address", "getSignaturesForAddress", ["not-an-address"], -32602],
    [
      "150 statuses searched through history",
      "getSignatureStatuses",
      [signatures, { searchTransactionHistory: true }],
      -32601,
    ],
    ["another method", "getSlot", [], -32601],
    ["an account read", "getAccountInfo", [WALLET], -32601],
    [
      "a blockhash with an unknown option",
      "getLatestBlockhash",
      [{ commitment: "confirmed", extra: 1 }],
      -32602,
    ],
    [
      "a send of something that is no transaction",
      "sendTransaction",
      ["AAAA", { encoding: "base64" }],
      -32602,
    ],
    ["a send in base58", "sendTransaction", ["3".repeat(100), { encoding: "base58" }], -32602],
  ] as const)("%s", async (_, method, params, code) => {
    const t = relayed();
    calls.length = 0;
    const response = await send(t, { jsonrpc: "2.0", id: 7, method, params });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code } });
    expect(calls).toEqual([]);
  });

  test("sendTransaction of anything but a USDC payment to this service is not sent", async () => {
    const t = relayed();
    calls.length = 0;
    const wires = [
      await solTransfer(),
      (await usdcTransfer(STRANGER, USDC_MINT)).wire,
      (await usdcTransfer(WALLET, OTHER_MINT)).wire,
      (await usdcTransfer(WALLET, USDC_MINT, 0n)).wire,
      // Dust to our wallet would buy a relay for anything else in the same transaction.
      (await usdcTransfer(WALLET, USDC_MINT, 9_999n)).wire,
    ];
    for (const wire of wires) {
      const response = await send(t, {
        jsonrpc: "2.0",
        id: 1,
        method: "sendTransaction",
        params: [wire, { encoding: "base64" }],
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32602,
          message: "Only a USDC transfer to this service's wallet is sent through this relay",
        },
      });
    }
    expect(calls).toEqual([]);
    expect(await t.metricsText()).toContain(
      'rpc_relay_calls_total{method="sendTransaction",outcome="transaction-refused"} 5',
    );
    // skipPreflight would let junk reach the RPC unchecked: the widget never sends it.
    const skipped = await send(t, {
      jsonrpc: "2.0",
      id: 1,
      method: "sendTransaction",
      params: [(await usdcTransfer(WALLET, USDC_MINT)).wire, { encoding: "base64", skipPreflight: true }],
    });
    expect(skipped.status).toBe(400);
    expect(calls).toEqual([]);
  });

  test("made-up method names are counted under one label", async () => {
    const t = relayed();
    for (const method of ["a", "b", "c"]) await send(t, { jsonrpc: "2.0", id: 1, method, params: [] });
    expect(await t.metricsText()).toContain(
      'rpc_relay_calls_total{method="other",outcome="method-refused"} 3',
    );
  });
});

describe("budgets", () => {
  test("a burst gets the client's budget, then the global one; exact counts, reset each minute", async () => {
    let now = 1_699_999_990_000; // 10 s into a minute
    const t = relayed({
      ceilings: { "rpc-relay-per-client": 5, "rpc-relay": 8 },
      now: () => now,
    });
    calls.length = 0;
    const blockhash = { jsonrpc: "2.0", id: 1, method: "getLatestBlockhash", params: [] };
    const burst = async (from: string, count: number) => {
      const responses = await Promise.all(Array.from({ length: count }, () => send(t, blockhash, from)));
      return responses;
    };
    const first = await burst("203.0.113.7", 7);
    expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(first[5]?.headers.get("retry-after")).toBe("50");
    expect(await first[5]?.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32005, message: "RPC relay: this client's budget for this minute is spent" },
    });
    const second = await burst("198.51.100.23", 4);
    expect(second.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(await second[3]?.json()).toMatchObject({
      error: { code: -32005, message: "RPC relay: the service's budget for this minute is spent" },
    });
    expect(calls).toHaveLength(8);
    const metrics = await t.metricsText();
    expect(metrics).toContain('rpc_relay_calls_total{method="getLatestBlockhash",outcome="client-budget"} 2');
    expect(metrics).toContain('rpc_relay_calls_total{method="getLatestBlockhash",outcome="global-budget"} 1');
    expect(metrics).toContain('ceiling_refusals_total{ceiling="rpc-relay-per-client"} 2');
    expect(metrics).toContain('ceiling_refusals_total{ceiling="rpc-relay"} 1');
    // The shared budget is spent, but a payment to this service still goes through (its client's budget).
    const payment = {
      jsonrpc: "2.0",
      id: 2,
      method: "sendTransaction",
      params: [(await usdcTransfer(WALLET, USDC_MINT)).wire, { encoding: "base64" }],
    };
    expect((await send(t, payment, "192.0.2.44")).status).toBe(200);
    expect(calls).toHaveLength(9);
    now += 50_000; // the next minute
    expect((await burst("203.0.113.7", 1)).map((r) => r.status)).toEqual([200]);
    expect(calls).toHaveLength(10);
  });
});

// The widget's pay code calls nothing else through the relay.
test("the widget's pay code uses only the relayed methods", async () => {
  const { RELAYED_PARAMS } = await import("../../src/http/routes/rpc-relay-params.ts");
  const glob = new Bun.Glob("src/widget/pay/*.ts");
  const used = new Set<string>();
  for await (const file of glob.scan({ cwd: `${import.meta.dir}/../..` })) {
    const text = await Bun.file(`${import.meta.dir}/../../${file}`).text();
    for (const match of text.matchAll(/\.(get[A-Za-z]+|sendTransaction)\(/g)) {
      if (
        /^(get[A-Z][a-zA-Z]*(Blockhash|Address|Statuses|Info|Slot|Balance))$|^sendTransaction$/.test(
          match[1] ?? "",
        )
      )
        used.add(match[1] ?? "");
    }
  }
  expect([...used].sort()).toEqual(Object.keys(RELAYED_PARAMS).sort());
});
