/** Every rejection of the spec's error table, each with its own real transaction on the local chain. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { startTestChain } from "../support/localnet.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

let chain: Awaited<ReturnType<typeof startTestChain>>;
const build = testApps(afterAll);
let t: TestApp;

beforeAll(async () => {
  chain = await startTestChain();
  t = build({
    freeQueries: 0,
    chain: {
      layer: ChainSolana.layer({ rpcUrl: chain.url, baseDelayMs: 20, timeoutMs: 400 }),
      usdcMint: chain.mint,
      wallet: chain.serviceWallet,
    },
  });
});
afterAll(() => chain.stop());

const rejected = async (body: unknown, code: string, from?: string) => {
  const res = await t.pay(body, from);
  expect(res.status).toBe(400);
  const json = await res.json();
  expect(json.code).toBe(code);
  expect(json.details).toContain("USDC");
  return json;
};
const remaining = async (from?: string) => (await (await t.call("/api/status", {}, from)).json()).remaining;

describe("rejected payments grant nothing", () => {
  test("SOL instead of USDC", async () => {
    const signature = await chain.sendSol(chain.serviceWallet, 10_000_000n);
    expect((await rejected({ signature, amount: 0.01, token: "USDC" }, "WRONG_TOKEN")).error).toContain(
      "SOL",
    );
  });

  test("another token mint", async () => {
    await rejected({ signature: await chain.sendOtherMint(), amount: 0.05, token: "USDC" }, "WRONG_TOKEN");
  });

  test("USDC to another recipient", async () => {
    const stranger = await chain.fundPayer({ usdcUnits: 0n });
    const signature = await chain.sendUsdc({ units: 10_000n, to: stranger.address });
    await rejected({ signature, amount: 0.01, token: "USDC" }, "WRONG_RECIPIENT");
  });

  test("underpayment beyond 1%", async () => {
    const signature = await chain.sendUsdc({ units: 98_999n });
    await rejected({ signature, amount: 0.1, token: "USDC" }, "INSUFFICIENT_AMOUNT");
  });

  test("failed transaction", async () => {
    await rejected(
      { signature: await chain.sendFailingUsdc(), amount: 0.01, token: "USDC" },
      "TRANSACTION_FAILED",
    );
  });

  test("unknown signature", async () => {
    const body = await rejected(
      { signature: chain.randomSignature(), amount: 0.01, token: "USDC" },
      "TRANSACTION_NOT_FOUND",
    );
    expect(body.retryable).toBe(true);
  });

  test.each([["not-a-signature"], ["1111"], [`${"z".repeat(90)}`]])(
    "malformed signature %j",
    async (signature) => {
      await rejected({ signature, amount: 0.01, token: "USDC" }, "INVALID_SIGNATURE");
    },
  );

  test.each([[0.005], [1.5], [0.0123]])("amount %p out of range or step", async (amount) => {
    await rejected({ signature: chain.randomSignature(), amount, token: "USDC" }, "INVALID_AMOUNT");
  });

  test("reuse of a granted signature, by the same or another client", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n });
    expect((await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.31")).status).toBe(200);
    await rejected({ signature, amount: 0.01, token: "USDC" }, "SIGNATURE_ALREADY_USED", "198.51.100.31");
    await rejected({ signature, amount: 0.01, token: "USDC" }, "SIGNATURE_ALREADY_USED", "198.51.100.32");
    expect(await remaining("198.51.100.31")).toBe(10);
    expect(await remaining("198.51.100.32")).toBe(0);
  });

  test("a transaction older than the signature memory window", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n, ageMs: 31 * 86_400_000 });
    await rejected({ signature, amount: 0.01, token: "USDC" }, "TRANSACTION_TOO_OLD");
  });

  test("a transfer carrying another client's memo", async () => {
    const victim = await (await t.call("/api/payment/info", {}, "198.51.100.41")).json();
    const signature = await chain.sendUsdc({ units: 10_000n, memo: victim.memo });
    await rejected({ signature, amount: 0.01, token: "USDC" }, "MEMO_MISMATCH", "198.51.100.42");
    expect(await remaining("198.51.100.42")).toBe(0);
    expect((await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.41")).status).toBe(200);
  });

  test("claiming more than was sent, even within range", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n });
    await rejected({ signature, amount: 1, token: "USDC" }, "INSUFFICIENT_AMOUNT");
    expect(await remaining()).toBe(0);
  });
});

describe("RPC faults", () => {
  test("timeouts and 5xx are retried, then reported as 503; nothing granted; works after recovery", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n });
    for (const kind of ["http-500", "timeout"] as const) {
      chain.localnet.setFaults({ getTransaction: kind });
      const res = await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.50");
      expect(res.status).toBe(503);
      expect((await res.json()).code).toBe("CHAIN_UNAVAILABLE");
      expect(chain.localnet.calls("getTransaction")).toBeGreaterThan(1);
    }
    chain.localnet.setFaults({});
    expect(await remaining("198.51.100.50")).toBe(0);
    expect((await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.50")).status).toBe(200);
  });

  test("a 500 then a good reply succeeds (retried)", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n });
    chain.localnet.setFaults({ getTransaction: { kind: "http-500", times: 1 } });
    expect((await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.51")).status).toBe(200);
    chain.localnet.setFaults({});
  });

  test.each([["invalid-json"], ["wrong-shape"]] as const)("a %s reply never grants", async (kind) => {
    const signature = await chain.sendUsdc({ units: 10_000n });
    chain.localnet.setFaults({ getTransaction: kind });
    const res = await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.52");
    chain.localnet.setFaults({});
    expect(res.status).toBe(503);
    expect(await remaining("198.51.100.52")).toBe(0);
  });
});
