/**
 * The fee payer's SOL, attacked on the local chain: what the sponsor spends is read from its
 * balance before and after. An accepted payment costs exactly its bounded fee; a refused payload
 * costs nothing; N transactions that each spend a payer's whole balance, posted at once for N
 * different payment requests, land once and the other N-1 are never sent (one settlement per
 * payer at a time, simulated while the payer is held).
 */
import { describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import type { PaymentRequirements } from "@x402/core/types";
import type { TestChain } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { startExampleServer, useExampleServer, useTwoExampleServers } from "../support/x402-example.ts";
import {
  computeUnitLimit,
  computeUnitPrice,
  exactHeader,
  memoInstruction,
  paymentRequiredOf,
  transferFor,
  withExtraAccount,
} from "../support/x402-v2.ts";

const context = useExampleServer({ v2: true });
const PREMIUM_UNITS = 100_000n;
/** The official client's budget: two signatures and 20,000 units at 1 micro-lamport. */
const OFFICIAL_FEE = 10_001n;

/** Where the helpers below go: the memory-store server by default, or one of two sharing Redis. */
interface Target {
  readonly url: string;
  readonly chain: TestChain;
}
const memory = (): Target => ({ url: context.server.url, chain: context.chain });

const get = (path: string, header?: string, target: Target = memory()) =>
  fetch(`${target.url}${path}`, header === undefined ? {} : { headers: { "PAYMENT-SIGNATURE": header } });

const feePayerSol = async (chain: TestChain = context.chain) =>
  (await chain.rpc.getBalance(chain.localnet.feePayer.address).send()).value;

const requirementsOf = async (target: Target = memory()): Promise<PaymentRequirements> => {
  const response = await get("/premium-data", undefined, target);
  expect(response.status).toBe(402);
  const [requirements] = paymentRequiredOf(response).accepts;
  if (requirements === undefined) throw new Error("no accepts entry");
  return requirements;
};

/** An honest payload for a fresh payment request, by `payer`. */
const honest = async (payer: KeyPairSigner, target: Target = memory()) => {
  const requirements = await requirementsOf(target);
  const memo = memoInstruction((requirements.extra as { memo: string }).memo);
  return exactHeader(requirements, [await transferFor({ requirements, payer }), memo], {
    rpcUrl: target.chain.url,
  });
};

describe("what the sponsor spends", () => {
  test("an accepted payment costs exactly its fee: two signatures and the official budget", async () => {
    const payer = await context.chain.fundPayer();
    const before = await feePayerSol();
    const response = await get("/premium-data", await honest(payer));
    expect(response.status).toBe(200);
    expect(before - (await feePayerSol())).toBe(OFFICIAL_FEE);
  });

  test("N transfers of one whole balance posted at once: one lands, none fails on chain at the sponsor's expense", async () => {
    const payer = await context.chain.fundPayer({ usdcUnits: PREMIUM_UNITS });
    const headers = await Promise.all(Array.from({ length: 5 }, () => honest(payer)));
    context.chain.localnet.setConfirmationDelay(150);
    const before = await feePayerSol();
    const responses = await Promise.all(headers.map((header) => get("/premium-data", header))).finally(() =>
      context.chain.localnet.setConfirmationDelay(0),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 403, 403, 403, 403]);
    const reasons = await Promise.all(
      responses
        .filter((response) => response.status === 403)
        .map(async (response) => ((await response.json()) as { Details: { reason: string } }).Details.reason),
    );
    // Told to wait while the first settles, or refused in simulation once its balance is gone.
    for (const reason of reasons) expect(["exact-payer-busy", "exact-simulation-failed"]).toContain(reason);
    expect(before - (await feePayerSol())).toBe(OFFICIAL_FEE);
    expect(await context.chain.usdcBalance(payer.address)).toBe(0n);
  });

  test("right after, the same payer's next payload is simulated against what is left: refused, nothing spent", async () => {
    const payer = await context.chain.fundPayer({ usdcUnits: PREMIUM_UNITS });
    expect((await get("/premium-data", await honest(payer))).status).toBe(200);
    const before = await feePayerSol();
    const again = await get("/premium-data", await honest(payer));
    expect(again.status).toBe(403);
    expect(((await again.json()) as { Details: { reason: string } }).Details.reason).toBe(
      "exact-simulation-failed",
    );
    expect(await feePayerSol()).toBe(before);
  });

  const refused: ReadonlyArray<
    readonly [string, string, (requirements: PaymentRequirements, payer: KeyPairSigner) => Promise<string>]
  > = [
    [
      "no compute-unit limit and the highest price",
      "exact-compute-budget-invalid",
      async (requirements, payer) =>
        exactHeader(
          requirements,
          [
            computeUnitPrice(5_000_000n),
            await transferFor({ requirements, payer }),
            memoInstruction((requirements.extra as { memo: string }).memo),
          ],
          { rpcUrl: context.chain.url },
        ),
    ],
    [
      "the largest limit at the highest price",
      "exact-compute-price-too-high",
      async (requirements, payer) =>
        exactHeader(
          requirements,
          [
            computeUnitLimit(1_400_000),
            computeUnitPrice(5_000_000n),
            await transferFor({ requirements, payer }),
            memoInstruction((requirements.extra as { memo: string }).memo),
          ],
          { rpcUrl: context.chain.url },
        ),
    ],
    [
      "an extra signer of the payer's own",
      "exact-signers-invalid",
      async (requirements, payer) =>
        exactHeader(
          requirements,
          [
            await transferFor({ requirements, payer }),
            memoInstruction((requirements.extra as { memo: string }).memo),
          ],
          { rpcUrl: context.chain.url, tamper: await withExtraAccount(payer, { signer: true }) },
        ),
    ],
  ];
  for (const [name, reason, build] of refused)
    test(`${name}: refused (${reason}), the sponsor spends nothing`, async () => {
      const payer = await context.chain.fundPayer();
      const before = await feePayerSol();
      const response = await get("/premium-data", await build(await requirementsOf(), payer));
      expect(response.status).toBe(403);
      expect(((await response.json()) as { Details: { reason: string } }).Details.reason).toBe(reason);
      expect(await feePayerSol()).toBe(before);
    });
});

describe("a fee payer below its floor", () => {
  test("is not offered: the 402 carries no PAYMENT-REQUIRED, a PAYMENT-SIGNATURE is refused, nothing is spent", async () => {
    const poor = await startExampleServer(context.chain, { v2: true, sponsorFloor: 10n ** 18n });
    try {
      const offer = await fetch(`${poor.url}/premium-data`);
      expect(offer.status).toBe(402);
      expect(offer.headers.get("PAYMENT-REQUIRED")).toBeNull();
      expect(((await offer.json()) as { payment_id?: string }).payment_id).toMatch(/^pay_/);
      const before = await feePayerSol();
      const refused = await fetch(`${poor.url}/premium-data`, {
        headers: { "PAYMENT-SIGNATURE": await honest(await context.chain.fundPayer()) },
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { Details: { reason: string } }).Details.reason).toBe(
        "exact-sponsor-unavailable",
      );
      expect(await feePayerSol()).toBe(before);
      expect(poor.lines.some((line) => String(line.msg).startsWith("x402 v2 withdrawn from 402s"))).toBe(
        true,
      );
    } finally {
      await poor.stop();
    }
  });
});

describe.skipIf(!redisServerAvailable())("the sponsor on two instances sharing Redis", () => {
  const two = useTwoExampleServers({ v2: true });
  const at = (which: "first" | "second"): Target => ({ url: two[which].url, chain: two.chain });

  test("N transfers of one whole balance posted at once to both: one lands, the fee payer pays one fee", async () => {
    const payer = await two.chain.fundPayer({ usdcUnits: PREMIUM_UNITS });
    const targets = [at("first"), at("second"), at("first"), at("second"), at("first")];
    const headers = await Promise.all(targets.map((target) => honest(payer, target)));
    two.chain.localnet.setConfirmationDelay(150);
    const before = await feePayerSol(two.chain);
    const responses = await Promise.all(
      headers.map((header, i) => get("/premium-data", header, targets[i])),
    ).finally(() => two.chain.localnet.setConfirmationDelay(0));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 403, 403, 403, 403]);
    // The payer is held across instances (SettlementLocks on Redis): one transaction is ever sent.
    expect(before - (await feePayerSol(two.chain))).toBe(OFFICIAL_FEE);
    expect(await two.chain.usdcBalance(payer.address)).toBe(0n);
  });
});
