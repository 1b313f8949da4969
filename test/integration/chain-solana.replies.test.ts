/**
 * Hostile or odd replies the local chain's faults cannot produce: a reply about another
 * transaction, integers beyond 2^53, JSON-RPC error codes. The reader gets a stub RPC whose
 * answers are real replies from the local chain, altered.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SolanaError } from "@solana/kit";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { classifyRpcFailure } from "../../adapters/chain-solana/rpc-problem.ts";
import { make, type ReaderRpc } from "../../adapters/chain-solana/solana-chain-reader.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { toPlainJson } from "../support/plain-json.ts";

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.stop());

const POLICY = { timeoutMs: 1000, attempts: 1, baseDelayMs: 1 };

/** A reader whose getTransaction answers `reply` whatever is asked. */
const readerAnswering = (reply: unknown) =>
  make(
    {
      // The reader's own transport gives plain numbers (bigints only beyond 2^53): mimic it.
      getTransaction: () => ({ send: async () => toPlainJson(reply) }),
      getSignatureStatuses: () => ({ send: async () => ({ context: { slot: 1 }, value: [null] }) }),
      getSlot: () => ({ send: async () => 1n }),
    } as unknown as ReaderRpc,
    POLICY,
  );

describe("replies that must not be trusted", () => {
  test("a reply about another transaction is malformed-reply", async () => {
    const other = await chain.parsedTransaction(await chain.sendUsdc({ units: 10_000n }));
    const asked = await chain.sendUsdc({ units: 20_000n });
    const result = await Effect.runPromise(Effect.result(readerAnswering(other).lookup(asked)));
    expect(Result.isFailure(result) && result.failure.reason).toBe("malformed-reply");
    // The same reply for its own signature is accepted, so the refusal above is about the mismatch.
    const own = other?.transaction.signatures[0] ?? "";
    const ok = await Effect.runPromise(Effect.result(readerAnswering(other).lookup(own)));
    expect(Result.isSuccess(ok) && ok.success.kind).toBe("found");
  });

  test("an amount or slot beyond 2^53 is refused, not rounded", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n });
    const reply = (await chain.parsedTransaction(signature)) as unknown as { slot: bigint };
    const huge = { ...reply, slot: 2n ** 60n };
    const result = await Effect.runPromise(Effect.result(readerAnswering(huge).lookup(signature)));
    expect(Result.isFailure(result) && result.failure.reason).toBe("malformed-reply");
    expect(toPlainJson({ a: [1n, 2n ** 60n], b: "x" })).toEqual({ a: [1, 2n ** 60n], b: "x" });
  });
});

describe("JSON-RPC error codes", () => {
  const problem = (code: number) =>
    classifyRpcFailure(new SolanaError(code as never, { __serverMessage: "x" } as never));

  test("node-busy errors are retried server errors; request errors are not retried", () => {
    expect(problem(-32005)).toMatchObject({ reason: "server-error", retryable: true });
    expect(problem(-32603)).toMatchObject({ reason: "server-error", retryable: true });
    expect(problem(-32602)).toMatchObject({ reason: "server-error", retryable: false });
    expect(classifyRpcFailure(new SyntaxError("bad"))).toMatchObject({
      reason: "malformed-reply",
      retryable: false,
    });
    expect(classifyRpcFailure(new TypeError("fetch failed"))).toMatchObject({
      reason: "unreachable",
      retryable: true,
    });
  });
});
