/** The ChainReader adapter against the real local chain: lookups, retries, failures. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { ChainReader, type ChainUnavailable } from "../../core/ports/chain-reader.ts";
import { freePort, waitFor } from "../support/free-port.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterEach(() => {
  chain.localnet.setFaults({});
  chain.localnet.setConfirmationDelay(0);
});
afterAll(() => chain.stop());

// Short timeouts and back-off keep failure tests quick; the behaviour is the same as the defaults'.
const FAST = { timeoutMs: 300, attempts: 3, baseDelayMs: 5 };

const run = <A>(
  use: (reader: ChainReader["Service"]) => Effect.Effect<A, ChainUnavailable>,
  options = FAST,
  url = chain.url,
) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* use(yield* ChainReader);
    }).pipe(Effect.result, Effect.provide(ChainSolana.layer({ rpcUrl: url, ...options }))),
  );
const lookup = (signature: string, options = FAST) => run((reader) => reader.lookup(signature), options);

const failureOf = <A>(result: Result.Result<A, ChainUnavailable>) =>
  Result.isFailure(result) ? result.failure : undefined;

describe("lookup", () => {
  test("a confirmed transfer is found, decoded through the core schema", async () => {
    const signature = await chain.sendUsdc({ units: 50_000n, memo: "abc" });
    const result = await lookup(signature);
    const found =
      Result.isSuccess(result) && result.success.kind === "found" ? result.success.transaction : undefined;
    expect(found?.transaction.signatures[0]).toBe(signature);
    expect(typeof found?.slot).toBe("number");
    expect(found?.meta?.postTokenBalances?.some((b) => b.owner === chain.serviceWallet)).toBe(true);
  });

  test("an unknown signature is missing; a string that is not a signature too", async () => {
    expect(await lookup(chain.randomSignature())).toEqual(Result.succeed({ kind: "missing" }));
    expect(await lookup("not-a-signature")).toEqual(Result.succeed({ kind: "missing" }));
  });

  test("a transaction seen but not confirmed is pending, then found after the delay", async () => {
    chain.localnet.setConfirmationDelay(400);
    const signature = await chain.sendUsdc({ units: 10_000n });
    expect(await lookup(signature)).toEqual(Result.succeed({ kind: "pending" }));
    await waitFor(
      async () => {
        const result = await lookup(signature);
        return Result.isSuccess(result) && result.success.kind === "found";
      },
      10_000,
      "the transaction to be found",
    );
  });
});

describe("failures", () => {
  const counted = async (method: string, act: () => Promise<unknown>) => {
    const before = chain.localnet.calls(method);
    const result = await act();
    return { result, calls: chain.localnet.calls(method) - before };
  };

  test("a node that never answers: every attempt times out, then ChainUnavailable timeout", async () => {
    chain.localnet.setFaults({ getTransaction: "timeout" });
    const { result, calls } = await counted("getTransaction", () => lookup(chain.randomSignature()));
    expect(failureOf(result as never)).toMatchObject({ _tag: "ChainUnavailable", reason: "timeout" });
    expect(calls).toBe(FAST.attempts);
  });

  test("5xx is retried up to the attempt limit, then server-error", async () => {
    chain.localnet.setFaults({ getTransaction: "http-500" });
    const { result, calls } = await counted("getTransaction", () => lookup(chain.randomSignature()));
    expect(failureOf(result as never)).toMatchObject({ reason: "server-error" });
    expect(calls).toBe(FAST.attempts);
  });

  test("429 is retried, then rate-limited", async () => {
    chain.localnet.setFaults({ getTransaction: "http-429" });
    const { result, calls } = await counted("getTransaction", () =>
      lookup(chain.randomSignature(), { ...FAST, attempts: 4 }),
    );
    expect(failureOf(result as never)).toMatchObject({ reason: "rate-limited" });
    expect(calls).toBe(4);
  });

  test("one 500 (or one 429) and then a good reply: the lookup succeeds", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n });
    for (const kind of ["http-500", "http-429"] as const) {
      chain.localnet.setFaults({ getTransaction: { kind, times: 1 } });
      const { result, calls } = await counted("getTransaction", () => lookup(signature));
      expect(
        Result.isSuccess(result as never) && (result as { success: { kind: string } }).success.kind,
      ).toBe("found");
      expect(calls).toBe(2);
    }
  });

  test("a reply that is not JSON is malformed-reply at once (no retry, no grant)", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n });
    chain.localnet.setFaults({ getTransaction: "invalid-json" });
    const { result, calls } = await counted("getTransaction", () => lookup(signature));
    expect(failureOf(result as never)).toMatchObject({ reason: "malformed-reply" });
    expect(calls).toBe(1);
  });

  test("a result of the wrong shape is malformed-reply, for the transaction and for the status", async () => {
    chain.localnet.setFaults({ getTransaction: "wrong-shape" });
    expect(failureOf(await lookup(await chain.sendUsdc({ units: 10_000n })))).toMatchObject({
      reason: "malformed-reply",
    });
    chain.localnet.setFaults({ getSignatureStatuses: "wrong-shape" });
    expect(failureOf(await lookup(chain.randomSignature()))).toMatchObject({ reason: "malformed-reply" });
  });

  test("a status failure does not matter when the transaction is found", async () => {
    chain.localnet.setFaults({ getSignatureStatuses: "http-500" });
    const result = await lookup(await chain.sendUsdc({ units: 10_000n }));
    expect(Result.isSuccess(result) && result.success.kind).toBe("found");
  });

  test("a status failure on a missing transaction is reported, not taken for 'missing'", async () => {
    chain.localnet.setFaults({ getSignatureStatuses: "http-500" });
    expect(failureOf(await lookup(chain.randomSignature()))).toMatchObject({ reason: "server-error" });
  });

  test("nothing listening: unreachable", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const result = await run(
      (reader) => reader.lookup(chain.randomSignature()),
      { ...FAST, attempts: 2 },
      url,
    );
    expect(failureOf(result)).toMatchObject({ reason: "unreachable" });
  });
});

describe("ping", () => {
  test("succeeds on a healthy node and fails with the right reason otherwise", async () => {
    expect(Result.isSuccess(await run((reader) => reader.ping))).toBe(true);
    chain.localnet.setFaults({ getSlot: "http-500" });
    expect(failureOf(await run((reader) => reader.ping))).toMatchObject({ reason: "server-error" });
    chain.localnet.setFaults({ getSlot: "wrong-shape" });
    expect(failureOf(await run((reader) => reader.ping))).toMatchObject({ reason: "malformed-reply" });
  });
});
