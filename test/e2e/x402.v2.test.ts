/**
 * x402 v2 (scheme exact on Solana) on the example server, this service as facilitator, on a
 * real local chain: the official client (`@x402/fetch` + `@x402/svm`) pays and gets the content
 * and a PAYMENT-RESPONSE naming the settled transaction; every forbidden transaction shape is
 * refused with its reason, nothing moved and nothing served.
 */
import { describe, expect, test } from "bun:test";
import type { Address, Blockhash, KeyPairSigner, Transaction } from "@solana/kit";
import { AccountRole, getBase58Decoder, getBase58Encoder, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { getApproveInstruction } from "@solana-program/token";
import type { PaymentRequirements } from "@x402/core/types";
import { useExampleServer } from "../support/x402-example.ts";
import {
  computeUnitLimit,
  computeUnitPrice,
  exactHeader,
  memoInstruction,
  OFFICIAL_BUDGET,
  officialFetch,
  officialPaymentHeader,
  paymentRequiredOf,
  requestHeapFrame,
  settlementOf,
  transferFor,
  withExtraAccount,
} from "../support/x402-v2.ts";

const context = useExampleServer({ v2: true });
const wallet = (signer: KeyPairSigner) => ({ signer, rpcUrl: context.chain.url, mint: context.chain.mint });
const PREMIUM_UNITS = 100_000n;

const get = (path: string, header?: string) =>
  fetch(
    `${context.server.url}${path}`,
    header === undefined ? {} : { headers: { "PAYMENT-SIGNATURE": header } },
  );

/** Balances that must not move when a payment is refused. */
const balances = async (payer: KeyPairSigner) => ({
  service: await context.chain.usdcBalance(context.chain.serviceWallet),
  payer: await context.chain.usdcBalance(payer.address),
  feePayerSol: (await context.chain.rpc.getBalance(context.chain.localnet.feePayer.address).send()).value,
  payerSol: (await context.chain.rpc.getBalance(payer.address).send()).value,
});

const requirementsOf = async (path: string): Promise<PaymentRequirements> => {
  const response = await get(path);
  expect(response.status).toBe(402);
  const [requirements] = paymentRequiredOf(response).accepts;
  if (requirements === undefined) throw new Error("no accepts entry");
  return requirements;
};

describe("the official x402 client pays the example server", () => {
  test("a 402 offers both dialects: the spec's body and a PAYMENT-REQUIRED header", async () => {
    const response = await get("/premium-data");
    expect(response.status).toBe(402);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.max_amount_required).toBe("0.10");
    const required = paymentRequiredOf(response);
    expect(required.x402Version).toBe(2);
    expect(required.resource.url).toBe(`${context.server.url}/premium-data`);
    const [offer] = required.accepts;
    expect(offer).toMatchObject({
      scheme: "exact",
      network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
      asset: context.chain.mint,
      payTo: context.chain.serviceWallet,
      amount: PREMIUM_UNITS.toString(),
      extra: { feePayer: context.chain.localnet.feePayer.address, memo: `x402:${body.payment_id}` },
    });
    expect(offer?.maxTimeoutSeconds).toBeGreaterThan(200);
    // The scheme's optional hint: a blockhash our own (settling) RPC has seen, and its last valid height.
    const extra = offer?.extra as { recentBlockhash: string; lastValidBlockHeight: string };
    expect(getBase58Encoder().encode(extra.recentBlockhash)).toHaveLength(32);
    expect(extra.lastValidBlockHeight).toMatch(/^\d+$/);
    const { value: valid } = await context.chain.rpc
      .isBlockhashValid(extra.recentBlockhash as Blockhash, { commitment: "confirmed" })
      .send();
    expect(valid).toBe(true);
  });

  test("@x402/fetch pays /premium-data: content, PAYMENT-RESPONSE, the exact amount moved once", async () => {
    const payer = await context.chain.fundPayer();
    const before = await balances(payer);
    const response = await officialFetch(wallet(payer))(`${context.server.url}/premium-data`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      data: string;
      receipt: { transaction_hash: string; payer: string };
    };
    expect(body.data).toContain("Premium data");
    const settlement = settlementOf(response);
    expect(settlement).toMatchObject({ success: true, payer: payer.address });
    expect(body.receipt.transaction_hash).toBe(settlement?.transaction ?? "");
    const onChain = await context.chain.parsedTransaction(settlement?.transaction as never);
    expect(onChain?.meta?.err).toBeNull();
    const after = await balances(payer);
    expect(after.service - before.service).toBe(PREMIUM_UNITS);
    expect(before.payer - after.payer).toBe(PREMIUM_UNITS);
    // The service's fee payer paid the fee; the payer's SOL is untouched.
    expect(after.feePayerSol).toBeLessThan(before.feePayerSol);
    expect(after.payerSol).toBe(before.payerSol);
  });

  test("the same payload again: refused as used, nothing moved, nothing served", async () => {
    const payer = await context.chain.fundPayer();
    const header = await officialPaymentHeader(wallet(payer), await get("/premium-data"));
    expect((await get("/premium-data", header)).status).toBe(200);
    const before = await balances(payer);
    const replay = await get("/premium-data", header);
    expect(replay.status).toBe(403);
    const body = (await replay.json()) as { Details: { reason: string }; data?: string };
    expect(body.Details.reason).toBe("payment-already-used");
    expect(body.data).toBeUndefined();
    expect(await balances(payer)).toEqual(before);
  });

  test("a payload for another route is refused", async () => {
    const payer = await context.chain.fundPayer();
    const header = await officialPaymentHeader(wallet(payer), await get("/tiered-data/basic"));
    const before = await balances(payer);
    const response = await get("/tiered-data/pro", header);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { Details: { reason: string } }).Details.reason).toBe(
      "payment-other-resource",
    );
    expect(await balances(payer)).toEqual(before);
  });
});

describe("forbidden transactions are refused, nothing moved, nothing served", () => {
  const randomBlockhash = () =>
    getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(32))) as Blockhash;
  const breakSignature = (transaction: Transaction): Transaction => {
    const [address, signature] = Object.entries(transaction.signatures).find(([, s]) => s !== null) ?? [];
    if (address === undefined || signature == null) throw new Error("no client signature");
    const broken = Uint8Array.from(signature);
    broken[0] = (broken[0] ?? 0) ^ 1;
    return { ...transaction, signatures: { ...transaction.signatures, [address]: broken } } as Transaction;
  };

  type Case = readonly [
    name: string,
    reason: string,
    build: (honest: {
      requirements: PaymentRequirements;
      payer: KeyPairSigner;
      memo: ReturnType<typeof memoInstruction>;
    }) => Promise<string>,
  ];
  const url = () => context.chain.url;
  const cases: ReadonlyArray<Case> = [
    [
      "an extra instruction",
      "exact-instruction-forbidden",
      async (h) =>
        exactHeader(
          h.requirements,
          [
            await transferFor(h),
            h.memo,
            getApproveInstruction({
              source: (await transferFor(h)).accounts?.[0]?.address as Address,
              delegate: context.chain.serviceWallet,
              owner: h.payer,
              amount: 1n,
            }),
          ],
          { rpcUrl: url() },
        ),
    ],
    [
      "a second transfer",
      "exact-instruction-forbidden",
      async (h) =>
        exactHeader(h.requirements, [await transferFor(h), await transferFor(h, { amount: 1n }), h.memo], {
          rpcUrl: url(),
        }),
    ],
    [
      "a wrong amount",
      "exact-transfer-mismatch",
      async (h) =>
        exactHeader(h.requirements, [await transferFor(h, { amount: PREMIUM_UNITS - 1n }), h.memo], {
          rpcUrl: url(),
        }),
    ],
    [
      "a wrong destination",
      "exact-transfer-mismatch",
      async (h) =>
        exactHeader(h.requirements, [await transferFor(h, { to: h.payer.address }), h.memo], {
          rpcUrl: url(),
        }),
    ],
    [
      "a wrong mint",
      "sent-other-token",
      async (h) => {
        const mint = await context.chain.localnet.createMint(context.chain.localnet.mintAuthority, 6);
        await context.chain.localnet.mintTokens(h.payer.address, 1_000_000n, mint);
        return exactHeader(h.requirements, [await transferFor(h, { mint }), h.memo], { rpcUrl: url() });
      },
    ],
    [
      "the fee payer as authority",
      "exact-fee-payer-misused",
      async (h) =>
        exactHeader(
          h.requirements,
          [await transferFor(h, { authority: context.chain.localnet.feePayer }), h.memo],
          { rpcUrl: url() },
        ),
    ],
    [
      "the fee payer as source",
      "exact-fee-payer-misused",
      async (h) =>
        exactHeader(
          h.requirements,
          [await transferFor(h, { source: context.chain.localnet.feePayer.address }), h.memo],
          { rpcUrl: url() },
        ),
    ],
    [
      "a compute price over the cap",
      "exact-compute-price-too-high",
      async (h) =>
        exactHeader(
          h.requirements,
          [computeUnitLimit(20_000), computeUnitPrice(5_000_001n), await transferFor(h), h.memo],
          { rpcUrl: url() },
        ),
    ],
    [
      "a worst case over the sponsor's bound (200,000 units at 5 lamports: 1,010,000 lamports)",
      "exact-compute-price-too-high",
      async (h) =>
        exactHeader(
          h.requirements,
          [computeUnitLimit(200_000), computeUnitPrice(5_000_000n), await transferFor(h), h.memo],
          { rpcUrl: url() },
        ),
    ],
    [
      "no compute-unit limit (the runtime's default would be paid for)",
      "exact-compute-budget-invalid",
      async (h) =>
        exactHeader(h.requirements, [computeUnitPrice(1n), await transferFor(h), h.memo], {
          rpcUrl: url(),
        }),
    ],
    [
      "no compute budget at all",
      "exact-compute-budget-invalid",
      async (h) => exactHeader(h.requirements, [await transferFor(h), h.memo], { rpcUrl: url(), bare: true }),
    ],
    [
      "two compute-unit limits",
      "exact-compute-budget-invalid",
      async (h) =>
        exactHeader(
          h.requirements,
          [computeUnitLimit(10_000), computeUnitLimit(10_000), await transferFor(h), h.memo],
          { rpcUrl: url() },
        ),
    ],
    [
      "a compute-budget instruction other than limit and price (a heap frame)",
      "exact-compute-budget-invalid",
      async (h) =>
        exactHeader(
          h.requirements,
          [...OFFICIAL_BUDGET, requestHeapFrame(256 * 1024), await transferFor(h), h.memo],
          { rpcUrl: url() },
        ),
    ],
    [
      "compute budget at the sponsor's bound is allowed (1,000 units at 5 lamports: 15,000 lamports)",
      "",
      async (h) =>
        exactHeader(
          h.requirements,
          [computeUnitLimit(1_000), computeUnitPrice(5_000_000n), await transferFor(h), h.memo],
          { rpcUrl: url() },
        ),
    ],
    [
      "one lamport over the sponsor's bound",
      "exact-compute-price-too-high",
      async (h) =>
        exactHeader(
          h.requirements,
          [computeUnitLimit(1_001), computeUnitPrice(5_000_000n), await transferFor(h), h.memo],
          { rpcUrl: url() },
        ),
    ],
    [
      "a second signer of the payer's own",
      "exact-signers-invalid",
      async (h) =>
        exactHeader(h.requirements, [await transferFor(h), h.memo], {
          rpcUrl: url(),
          tamper: await withExtraAccount(h.payer, { signer: true }),
        }),
    ],
    [
      "an account no instruction uses",
      "exact-account-unreferenced",
      async (h) =>
        exactHeader(h.requirements, [await transferFor(h), h.memo], {
          rpcUrl: url(),
          tamper: await withExtraAccount(h.payer, { signer: false }),
        }),
    ],
    [
      "a transfer inside a smart wallet's instruction",
      "exact-smart-wallet-unsupported",
      async (h) =>
        exactHeader(
          h.requirements,
          [
            {
              programAddress: "SQDS4ep65T869zMMBKyuUq6aD6EgTu8psMjkvj52pCf" as Address,
              accounts: [],
              data: new Uint8Array([1]),
            },
            await transferFor(h),
            h.memo,
          ],
          { rpcUrl: url() },
        ),
    ],
    [
      "three Lighthouse assertions as Phantom adds them (a stand-in program runs them here) are paid",
      "",
      async (h) => {
        // The local chain runs the Memo program's code at Lighthouse's address: UTF-8 data, signing accounts.
        const assertion = {
          programAddress: "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95" as Address,
          accounts: [{ address: h.payer.address, role: AccountRole.READONLY_SIGNER, signer: h.payer }],
          data: new TextEncoder().encode("assert"),
        };
        return exactHeader(h.requirements, [await transferFor(h), h.memo, assertion, assertion, assertion], {
          rpcUrl: url(),
        });
      },
    ],
    [
      "two memos",
      "memo-mismatch",
      async (h) => exactHeader(h.requirements, [await transferFor(h), h.memo, h.memo], { rpcUrl: url() }),
    ],
    [
      "a SOL transfer instead of the token",
      "sent-sol",
      async (h) =>
        exactHeader(
          h.requirements,
          [
            getTransferSolInstruction({
              source: h.payer,
              destination: context.chain.serviceWallet,
              amount: lamports(100_000_000n),
            }),
            h.memo,
          ],
          { rpcUrl: url() },
        ),
    ],
    [
      "an expired blockhash",
      "exact-blockhash-expired",
      async (h) =>
        exactHeader(h.requirements, [await transferFor(h), h.memo], {
          rpcUrl: url(),
          blockhash: randomBlockhash(),
        }),
    ],
    [
      "a bad client signature",
      "exact-signature-invalid",
      async (h) =>
        exactHeader(h.requirements, [await transferFor(h), h.memo], {
          rpcUrl: url(),
          tamper: breakSignature,
        }),
    ],
    [
      "no memo binding it to a payment request",
      "memo-required",
      async (h) => exactHeader(h.requirements, [await transferFor(h)], { rpcUrl: url() }),
    ],
    [
      "a transfer larger than the token balance",
      "exact-simulation-failed",
      async (h) => {
        const poor = await context.chain.fundPayer({ usdcUnits: 1n });
        return exactHeader(h.requirements, [await transferFor({ ...h, payer: poor }), h.memo], {
          rpcUrl: url(),
        });
      },
    ],
  ];

  for (const [name, reason, build] of cases) {
    test(`${name}: ${reason || "paid"}`, async () => {
      const payer = await context.chain.fundPayer();
      const requirements = await requirementsOf("/premium-data");
      const memo = memoInstruction((requirements.extra as { memo: string }).memo);
      const header = await build({ requirements, payer, memo });
      const before = await balances(payer);
      const response = await get("/premium-data", header);
      const body = (await response.json()) as { Details?: { reason: string }; data?: string };
      if (reason === "") {
        // The control case: the same builder within every limit pays.
        expect(response.status).toBe(200);
        expect(body.data).toContain("Premium data");
        expect((await balances(payer)).payer).toBe(before.payer - PREMIUM_UNITS);
        return;
      }
      expect(response.status).toBe(403);
      expect(body.Details?.reason).toBe(reason);
      expect(body.data).toBeUndefined();
      expect(await balances(payer)).toEqual(before);
    });
  }

  test("a header that is not a payload: 400, nothing moved", async () => {
    for (const header of [
      "not base64!",
      btoa("{}"),
      btoa(JSON.stringify({ x402Version: 2 })),
      "A".repeat(9000),
    ]) {
      const response = await get("/premium-data", header);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { Details: { reason: string } }).Details.reason).toBe(
        "exact-payload-malformed",
      );
    }
  });
});
