/** Test knobs of the local chain: confirmation delay, clock offset, and each injected fault. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { isSolanaError, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR } from "@solana/kit";
import { parseFaultSpec } from "../../dev/localnet/faults.ts";
import { newKeypair } from "../../dev/localnet/keys.ts";
import { waitFor } from "../support/free-port.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterEach(() => {
  chain.localnet.setFaults({});
  chain.localnet.setConfirmationDelay(0);
  chain.localnet.setClockOffsetMs(0);
});
afterAll(() => chain.stop());

const DAY_MS = 86_400_000;

describe("confirmation delay", () => {
  test("a transaction is 'processed' and invisible at confirmed until the delay passes", async () => {
    chain.localnet.setConfirmationDelay(60_000);
    const pending = await chain.sendUsdc({ units: 10_000n });
    chain.localnet.setConfirmationDelay(300);
    const soon = await chain.sendUsdc({ units: 20_000n });
    for (const signature of [pending, soon]) {
      const status = (await chain.rpc.getSignatureStatuses([signature]).send()).value[0];
      expect(status).toMatchObject({ confirmationStatus: "processed", confirmations: 0n, err: null });
      expect(await chain.parsedTransaction(signature)).toBeNull();
    }
    expect(
      (await chain.rpc.getSignaturesForAddress(chain.serviceWallet).send()).map((e) => e.signature),
    ).not.toContain(soon);
    await waitFor(
      async () =>
        (await chain.rpc
          .getTransaction(soon, {
            encoding: "json",
            commitment: "confirmed",
            maxSupportedTransactionVersion: 0,
          })
          .send()) !== null,
      10_000,
      "the delayed transaction to confirm",
    );
    expect((await chain.rpc.getSignatureStatuses([soon]).send()).value[0]?.confirmationStatus).toBe(
      "finalized",
    );
    // The first one was sent under a 60 s delay, which still holds for it.
    expect((await chain.rpc.getSignatureStatuses([pending]).send()).value[0]?.confirmationStatus).toBe(
      "processed",
    );
  });
});

describe("clock offset", () => {
  test("transactions executed under a negative offset carry an old block time", async () => {
    chain.localnet.setClockOffsetMs(-31 * DAY_MS);
    const old = await chain.sendUsdc({ units: 10_000n });
    chain.localnet.setClockOffsetMs(0);
    const fresh = await chain.sendUsdc({ units: 10_000n });
    const blockTime = async (signature: typeof old) =>
      Number(
        (
          await chain.rpc
            .getTransaction(signature, { encoding: "json", maxSupportedTransactionVersion: 0 })
            .send()
        )?.blockTime,
      );
    const nowSeconds = Date.now() / 1000;
    expect(nowSeconds - (await blockTime(old))).toBeGreaterThan(30.9 * 86_400);
    expect(nowSeconds - (await blockTime(old))).toBeLessThan(31.1 * 86_400);
    expect(Math.abs(nowSeconds - (await blockTime(fresh)))).toBeLessThan(60);
  });

  test("sendUsdc's ageMs does the same for one transaction", async () => {
    const old = await chain.sendUsdc({ units: 10_000n, ageMs: 40 * DAY_MS });
    const tx = await chain.rpc
      .getTransaction(old, { encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    expect(Date.now() / 1000 - Number(tx?.blockTime)).toBeGreaterThan(39 * 86_400);
  });
});

describe("faults", () => {
  test("http-429 and http-500 answer with that status, for the named method only", async () => {
    for (const [kind, status] of [
      ["http-429", 429],
      ["http-500", 500],
    ] as const) {
      chain.localnet.setFaults({ getSlot: kind });
      const error = await chain.rpc
        .getSlot()
        .send()
        .catch((e: unknown) => e);
      expect(isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) && error.context.statusCode).toBe(
        status,
      );
      expect(await chain.rpc.getHealth().send()).toBe("ok");
    }
  });

  test("invalid-json is a 200 reply that does not parse", async () => {
    chain.localnet.setFaults({ getSlot: "invalid-json" });
    const response = await fetch(chain.url, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" }),
    });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
    expect(
      await chain.rpc
        .getSlot()
        .send()
        .catch((e: unknown) => e),
    ).toBeInstanceOf(Error);
  });

  test("wrong-shape is valid JSON-RPC with a nonsense result", async () => {
    chain.localnet.setFaults({ getTransaction: "wrong-shape" });
    const reply = await chain.rpc
      .getTransaction(chain.randomSignature(), { encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    expect(reply).toMatchObject({ slot: "not-a-number", meta: 42n });
  });

  test("timeout never answers: the client gives up, other methods still work", async () => {
    chain.localnet.setFaults({ getSlot: "timeout" });
    const error = await chain.rpc
      .getSlot()
      .send({ abortSignal: AbortSignal.timeout(200) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(await chain.rpc.getHealth().send()).toBe("ok");
  });

  test("times limits a fault to the next N calls; '*' hits every method; calls are counted", async () => {
    const before = chain.localnet.calls("getSlot");
    chain.localnet.setFaults({ getSlot: { kind: "http-500", times: 2 } });
    for (let i = 0; i < 2; i++)
      expect(
        await chain.rpc
          .getSlot()
          .send()
          .catch(() => "failed"),
      ).toBe("failed");
    expect(typeof (await chain.rpc.getSlot().send())).toBe("bigint");
    expect(chain.localnet.calls("getSlot") - before).toBe(3);
    chain.localnet.setFaults({ "*": "http-429" });
    expect(
      await chain.rpc
        .getHealth()
        .send()
        .catch(() => "failed"),
    ).toBe("failed");
    expect(
      await chain.rpc
        .getBalance((await newKeypair()).signer.address)
        .send()
        .catch(() => "failed"),
    ).toBe("failed");
    chain.localnet.setFaults({});
    expect(await chain.rpc.getHealth().send()).toBe("ok");
  });

  test("CLI fault specs parse strictly", () => {
    expect(parseFaultSpec("getTransaction=http-500:2")).toEqual([
      "getTransaction",
      { kind: "http-500", times: 2 },
    ]);
    expect(parseFaultSpec("*=timeout")).toEqual(["*", "timeout"]);
    for (const bad of ["getSlot", "getSlot=boom", "=http-500", "getSlot=http-500:x"]) {
      expect(() => parseFaultSpec(bad)).toThrow(/bad fault/);
    }
  });
});
