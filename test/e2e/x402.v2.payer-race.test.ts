/**
 * The payer's race on a paywalled route, on the local chain: the payment passes simulation, the
 * handler runs, and meanwhile the payer moves its USDC away (a real transfer of its own), so our
 * transaction fails on chain and the fee payer pays its fee. That wallet is then refused
 * sponsorship (EXACT_PAYER_COOLED_DOWN, nothing simulated or sent) for ten minutes, on every
 * instance sharing the store; the lamports lost are counted per hour, and past the hour's budget
 * x402 v2 is withdrawn (not offered, a fresh wallet refused) on every instance. Memory and Redis.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Address, KeyPairSigner } from "@solana/kit";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { PAYER_COOL_DOWNS_MS } from "../../core/payments/sponsor-losses.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { startFacilitator } from "../../src/payments/v2/facilitator.ts";
import { defaultConfig, quotaLimits } from "../../src/runtime/app-layer.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { type PaywallInstance, type PaywallStore, paywallInstance } from "../support/paywall-v2.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";

const PRICE_UNITS = 100_000n;
/** The official client's budget: two signatures and 20,000 units at 1 micro-lamport. */
const OFFICIAL_FEE = 10_001n;
let chain: TestChain;
let sink: Address;

beforeAll(async () => {
  chain = await startTestChain();
  await chain.localnet.mintTokens(chain.serviceWallet, 0n);
  sink = await chain.freshAddress();
  await chain.localnet.mintTokens(sink, 0n);
});
afterAll(() => chain?.stop());

const facilitatorWith = async (lossBudgetLamportsPerHour: number) => {
  const metrics = makeMetrics();
  const { logger, lines } = memoryLogger();
  const facilitator = await startFacilitator({
    rpcUrl: chain.url,
    feePayer: chain.localnet.feePayer,
    logger,
    metrics,
    lossBudgetLamportsPerHour,
  });
  if (facilitator === undefined) throw new Error("the local chain's fee payer did not start");
  return { facilitator, metrics, lines };
};

const instance = (facilitator: ExactFacilitator, store: PaywallStore, handlerDeadlineMs?: number) =>
  paywallInstance(chain, facilitator, store, handlerDeadlineMs);
type Instance = PaywallInstance;

const feePayerSol = async () => (await chain.rpc.getBalance(chain.localnet.feePayer.address).send()).value;
const reasonOf = async (response: Response) =>
  ((await response.json()) as { Details: { reason: string } }).Details.reason;

/** The race: the payer moves its whole USDC away while the handler runs; our transaction fails on chain. */
const race = async (on: Instance) => {
  const payer = await chain.fundPayer({ usdcUnits: PRICE_UNITS });
  const header = await on.honest(payer);
  on.whileHandling(() => chain.sendUsdc({ from: payer, to: sink, units: PRICE_UNITS }));
  const before = await feePayerSol();
  const started = Date.now();
  const response = await on.get(header);
  on.whileHandling(async () => undefined);
  expect(response.status).toBe(402);
  expect(await reasonOf(response)).toBe("exact-settlement-failed");
  expect(before - (await feePayerSol())).toBe(OFFICIAL_FEE);
  return { payer, started };
};

/** The cooled-down wallet, funded again, is refused before anything is simulated or sent. */
const refusedCooledDown = async (on: Instance, payer: KeyPairSigner) => {
  await chain.localnet.mintTokens(payer.address, PRICE_UNITS);
  const header = await on.honest(payer);
  const [simulated, sent, sol] = [
    chain.localnet.calls("simulateTransaction"),
    chain.localnet.calls("sendTransaction"),
    await feePayerSol(),
  ];
  const refused = await on.get(header);
  expect(refused.status).toBe(403);
  expect(await reasonOf(refused)).toBe("exact-payer-cooled-down");
  const retryAfter = Number(refused.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThan(PAYER_COOL_DOWNS_MS[0]! / 1000 - 60);
  expect(retryAfter).toBeLessThanOrEqual(PAYER_COOL_DOWNS_MS[0]! / 1000);
  expect(chain.localnet.calls("simulateTransaction")).toBe(simulated);
  expect(chain.localnet.calls("sendTransaction")).toBe(sent);
  expect(await feePayerSol()).toBe(sol);
};

describe("the payer's race on the memory store", () => {
  test("the wallet is cooled down (ten minutes) and the lamports are counted; another wallet still pays", async () => {
    const { facilitator, metrics } = await facilitatorWith(1_000_000);
    const on = instance(facilitator, MemoryStore.layer(quotaLimits(defaultConfig())));
    const { payer, started } = await race(on);
    const standing = await on.standing(payer);
    expect(standing.lostThisHour).toBe(Number(OFFICIAL_FEE));
    expect(standing.refusedUntil).toBeGreaterThanOrEqual(started + PAYER_COOL_DOWNS_MS[0]!);
    expect(metrics.render()).toContain(
      `x402_sponsor_lamports_total{outcome="failed-on-chain"} ${OFFICIAL_FEE}`,
    );
    await refusedCooledDown(on, payer);
    expect(metrics.render()).toContain('x402_sponsor_refusals_total{reason="exact-payer-cooled-down"} 1');
    const other = await chain.fundPayer({ usdcUnits: PRICE_UNITS });
    expect((await on.get(await on.honest(other))).status).toBe(200);
    await on.runtime.dispose();
  });

  test("past the hour's loss budget x402 v2 is withdrawn: no longer offered, one WARN", async () => {
    // A budget of one failure: the first loss spends it.
    const { facilitator, lines } = await facilitatorWith(Number(OFFICIAL_FEE));
    const on = instance(facilitator, MemoryStore.layer(quotaLimits(defaultConfig())));
    expect(await on.offersV2()).toBe(true);
    await race(on);
    expect(await on.offersV2()).toBe(false);
    expect(await on.offersV2()).toBe(false);
    const warnings = lines.filter((line) => JSON.stringify(line).includes("budget of lamports lost"));
    expect(warnings).toHaveLength(1);
    await on.runtime.dispose();
  });
});

describe("the payer lock outlives the handler", () => {
  test("a handler past its deadline is not settled: nothing sent; the same payload then pays once", async () => {
    const { facilitator } = await facilitatorWith(1_000_000);
    // A deadline far below the handler's time (the real one is 60 s, under the 120 s lock).
    const on = instance(facilitator, MemoryStore.layer(quotaLimits(defaultConfig())), 50);
    const payer = await chain.fundPayer({ usdcUnits: PRICE_UNITS });
    const header = await on.honest(payer);
    on.whileHandling(() => Bun.sleep(400));
    const sent = chain.localnet.calls("sendTransaction");
    const late = await on.get(header);
    expect(late.status).toBe(503);
    expect(await reasonOf(late)).toBe("exact-handler-deadline");
    expect(chain.localnet.calls("sendTransaction")).toBe(sent);
    expect(await chain.usdcBalance(payer.address)).toBe(PRICE_UNITS);
    on.whileHandling(async () => undefined);
    expect((await on.get(header)).status).toBe(200);
    expect(await chain.usdcBalance(payer.address)).toBe(0n);
    expect(chain.localnet.calls("sendTransaction")).toBe(sent + 1);
    await on.runtime.dispose();
  });
});

describe.if(redisServerAvailable())("the payer's race on two instances sharing Redis", () => {
  const context = useRedisServer();
  test("the wallet cooled down on the other instance too; past the budget the other withdraws v2 as well", async () => {
    const limits = quotaLimits(defaultConfig());
    const store = () => RedisStore.layer({ url: context.redis.url, limits, keyPrefix: "race:" });
    // Each instance its own facilitator (its own watch), as two processes would have.
    const first = instance((await facilitatorWith(2 * Number(OFFICIAL_FEE))).facilitator, store());
    const second = instance((await facilitatorWith(2 * Number(OFFICIAL_FEE))).facilitator, store());
    const { payer } = await race(first);
    expect((await second.standing(payer)).lostThisHour).toBe(Number(OFFICIAL_FEE));
    await refusedCooledDown(second, payer);
    // A second loss, on the second instance, spends the budget: the first learns it at its next payment.
    await race(second);
    expect(await second.offersV2()).toBe(false);
    const fresh = await chain.fundPayer({ usdcUnits: PRICE_UNITS });
    const header = await first.honest(fresh);
    const refused = await first.get(header);
    expect(refused.status).toBe(403);
    expect(await reasonOf(refused)).toBe("exact-sponsor-unavailable");
    expect(await first.offersV2()).toBe(false);
    await Promise.all([first.runtime.dispose(), second.runtime.dispose()]);
  });
});
