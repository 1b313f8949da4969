/** The local chain at the JSON-RPC level: bad requests, wire encodings, duplicates, forged signatures. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getBase58Decoder, getBase64Encoder, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { newKeypair } from "../../dev/localnet/keys.ts";
import { signInstructions, wireOf } from "../../src/solana/usdc-transfer.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.stop());

const post = async (body: string) => {
  const response = await fetch(chain.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return {
    status: response.status,
    json: (await response.json()) as Record<string, unknown> & {
      error?: { code: number; message: string };
      result?: unknown;
    },
  };
};
const call = (method: string, params: unknown[] = []) =>
  post(JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }));

/** A signed SOL transfer (not sent), its base64 wire form and its signature. */
const signedTransfer = async (amount = 1_000_000n) => {
  const to = (await newKeypair()).signer.address;
  const { value } = await chain.rpc.getLatestBlockhash().send();
  const tx = await signInstructions(
    chain.payer,
    [getTransferSolInstruction({ source: chain.payer, destination: to, amount: lamports(amount) })],
    value,
  );
  const wire = wireOf(tx);
  const signature = getBase58Decoder().decode(Object.values(tx.signatures)[0] ?? new Uint8Array());
  return { wire, signature, to };
};

describe("JSON-RPC envelope", () => {
  test("invalid JSON, unknown method and a bad request get JSON-RPC errors", async () => {
    expect((await post("{nope")).json.error?.code).toBe(-32700);
    expect((await call("getEverything")).json.error?.code).toBe(-32601);
    expect((await post(JSON.stringify({ jsonrpc: "2.0", id: 1, params: [] }))).json.error?.code).toBe(-32600);
    expect(
      (await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: "x" }))).json.error
        ?.code,
    ).toBe(-32600);
  });

  test("bad params are -32602, never a crash", async () => {
    for (const [method, params] of [
      ["getBalance", ["not-an-address"]],
      ["getBalance", []],
      ["getTransaction", ["short"]],
      ["getSignatureStatuses", ["x"]],
      ["sendTransaction", ["AAAA", { encoding: "base64" }]],
      ["sendTransaction", [12]],
      ["sendTransaction", ["abc", { encoding: "hex" }]],
      ["getAccountInfo", [chain.mint, { encoding: "zstd" }]],
      ["getMinimumBalanceForRentExemption", [-1]],
      ["requestAirdrop", [chain.serviceWallet, 1.5]],
      ["getSignaturesForAddress", [chain.serviceWallet, { limit: 0 }]],
      ["getTokenAccountsByOwner", [chain.serviceWallet, {}]],
    ] as const) {
      const reply = await call(method, [...params]);
      expect({ method, code: reply.json.error?.code }).toEqual({ method, code: -32602 });
    }
  });

  test("a batch is answered in order", async () => {
    const reply = await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "getHealth" },
        { jsonrpc: "2.0", id: 2, method: "nope" },
      ]),
    );
    expect(reply.json).toEqual([
      { jsonrpc: "2.0", result: "ok", id: 1 },
      { jsonrpc: "2.0", error: { code: -32601, message: "Method not found: nope" }, id: 2 },
    ] as unknown as Record<string, unknown>);
  });

  test("GET /health answers ok; other verbs are refused", async () => {
    expect(await (await fetch(`${chain.url}/health`)).text()).toBe("ok");
    expect((await fetch(chain.url, { method: "PUT" })).status).toBe(405);
  });
});

describe("sendTransaction", () => {
  test("base58 wire transactions are accepted too", async () => {
    const { wire, signature, to } = await signedTransfer();
    const base58 = getBase58Decoder().decode(getBase64Encoder().encode(wire));
    expect((await call("sendTransaction", [base58])).json.result).toBe(signature);
    expect<unknown>((await chain.rpc.getBalance(to).send()).value).toBe(1_000_000n);
  });

  test("a duplicate is refused by preflight and ignored with skipPreflight: it lands once", async () => {
    const { wire, signature, to } = await signedTransfer();
    expect((await call("sendTransaction", [wire, { encoding: "base64" }])).json.result).toBe(signature);
    const again = await call("sendTransaction", [wire, { encoding: "base64" }]);
    expect(again.json.error?.message).toContain("already been processed");
    expect(
      (await call("sendTransaction", [wire, { encoding: "base64", skipPreflight: true }])).json.result,
    ).toBe(signature);
    expect<unknown>((await chain.rpc.getBalance(to).send()).value).toBe(1_000_000n);
    expect((await chain.rpc.getSignaturesForAddress(to).send()).length).toBe(1);
  });

  test("a forged signature is refused (-32003) with or without preflight, and nothing moves", async () => {
    const { wire, to } = await signedTransfer();
    const bytes = Buffer.from(wire, "base64");
    bytes[10] = (bytes[10] ?? 0) ^ 0xff;
    const forged = bytes.toString("base64");
    expect((await call("sendTransaction", [forged, { encoding: "base64" }])).json.error?.code).toBe(-32003);
    expect(
      (await call("sendTransaction", [forged, { encoding: "base64", skipPreflight: true }])).json.error?.code,
    ).toBe(-32003);
    // All-zero signature bytes decode as "no signature": refused the same way.
    bytes.fill(0, 1, 65);
    const unsigned = bytes.toString("base64");
    for (const skipPreflight of [false, true]) {
      const reply = await call("sendTransaction", [unsigned, { encoding: "base64", skipPreflight }]);
      expect(reply.json.error?.code).toBe(-32003);
    }
    expect<unknown>((await chain.rpc.getBalance(to).send()).value).toBe(0n);
  });

  test("an unknown blockhash fails preflight; with skipPreflight the transaction is dropped", async () => {
    const to = (await newKeypair()).signer.address;
    const tx = await signInstructions(
      chain.payer,
      [getTransferSolInstruction({ source: chain.payer, destination: to, amount: lamports(1_000_000n) })],
      { blockhash: "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM" as never, lastValidBlockHeight: 10n },
    );
    const preflight = await call("sendTransaction", [wireOf(tx), { encoding: "base64" }]);
    expect(preflight.json.error?.message).toContain("Blockhash not found");
    const dropped = await call("sendTransaction", [wireOf(tx), { encoding: "base64", skipPreflight: true }]);
    expect(typeof dropped.json.result).toBe("string");
    expect((await call("getSignatureStatuses", [[dropped.json.result]])).json.result).toMatchObject({
      value: [null],
    });
    expect<unknown>((await chain.rpc.getBalance(to).send()).value).toBe(0n);
  });

  test("simulateTransaction reports without changing anything", async () => {
    const { wire, signature, to } = await signedTransfer(3_000_000n);
    const reply = await chain.rpc.simulateTransaction(wire, { encoding: "base64", sigVerify: true }).send();
    expect(reply.value.err).toBeNull();
    expect(reply.value.logs?.length).toBeGreaterThan(0);
    expect<unknown>((await chain.rpc.getBalance(to).send()).value).toBe(0n);
    expect((await chain.rpc.getSignatureStatuses([signature as never]).send()).value[0]).toBeNull();
    const tooMuch = await signedTransfer(10n ** 17n);
    const failing = await chain.rpc.simulateTransaction(tooMuch.wire, { encoding: "base64" }).send();
    expect<unknown>(failing.value.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
  });
});
