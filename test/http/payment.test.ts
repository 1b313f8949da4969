/**
 * POST /api/payment and GET /api/payment/info at the HTTP edge, one test per row of the
 * spec's error table, over a scripted chain (the real chain is in test/integration).
 */
import { describe, expect, test } from "bun:test";
import { encodeBase58 } from "../../core/base58.ts";
import {
  lamportsTo,
  OTHER_MINT,
  parsedTx,
  payerUsdc,
  recentBlockTime,
  STRANGER,
  USDC_MINT,
  usdcPayment,
  WALLET,
} from "../support/parsed-tx.ts";
import { testApps } from "../support/test-app.ts";
import { chainDown } from "../support/test-layers.ts";

const build = testApps();

let seed = 1;
/** A fresh, well-formed 64-byte signature. */
const newSignature = () =>
  encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => (i * 7 + seed++ * 13) % 256 || 1));

const expectPaymentError = async (res: Response, code: string) => {
  expect(res.status).toBe(400);
  const body = await res.json();
  expect(body.success).toBe(false);
  expect(body.code).toBe(code);
  expect(body.error.length).toBeGreaterThan(5);
  for (const word of ["USDC", "SOL", "amount", "recipient", "confirmed"])
    expect(body.details).toContain(word);
  return body;
};

describe("POST /api/payment", () => {
  test("a verified transfer grants amount*1000 queries, shown by /api/status", async () => {
    const t = build({ freeQueries: 0 });
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: usdcPayment(100_000n, { blockTime: recentBlockTime() }),
    });
    const res = await t.pay({ signature, amount: 0.1, token: "USDC" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      signature,
      queriesGranted: 100,
      rateLimit: { remaining: 100, requiresPayment: false },
    });
    expect(body.message).toContain("100");
    expect((await (await t.call("/api/status")).json()).remaining).toBe(100);
    expect((await t.chat("now paid")).status).toBe(200);
  });

  test.each([[0.001], [0.009], [1.01], [2], [0], [-0.5], [0.0105]])(
    "amount %p outside 0.01-1.00 or not a 0.001 step -> 400",
    async (amount) => {
      const t = build();
      await expectPaymentError(
        await t.pay({ signature: newSignature(), amount, token: "USDC" }),
        "INVALID_AMOUNT",
      );
    },
  );

  test.each([["abc"], [`0OIl${"1".repeat(80)}`], [encodeBase58(new Uint8Array(32).fill(9))], [""]])(
    "invalid signature format %j -> 400",
    async (signature) => {
      const t = build();
      await expectPaymentError(await t.pay({ signature, amount: 0.01, token: "USDC" }), "INVALID_SIGNATURE");
    },
  );

  test("token other than USDC -> 400", async () => {
    const t = build();
    await expectPaymentError(
      await t.pay({ signature: newSignature(), amount: 0.01, token: "SOL" }),
      "INVALID_TOKEN",
    );
  });

  test.each([
    [{}, "signature is required"],
    [{ signature: 5, amount: 0.01, token: "USDC" }, "signature must be a string"],
    [{ signature: "x", amount: "0.01", token: "USDC" }, "amount must be a number"],
  ])("missing or mistyped fields %j -> 400", async (body, detail) => {
    const t = build();
    const res = await t.pay(body);
    expect(res.status).toBe(400);
    expect((await res.json()).details).toContain(detail);
  });

  test("transaction not found yet -> 400, retryable", async () => {
    const t = build();
    const body = await expectPaymentError(
      await t.pay({ signature: newSignature(), amount: 0.01, token: "USDC" }),
      "TRANSACTION_NOT_FOUND",
    );
    expect(body.retryable).toBe(true);
  });

  test("transaction not confirmed yet -> 400, retryable; succeeds once confirmed", async () => {
    const t = build();
    const signature = newSignature();
    t.lookups.set(signature, { kind: "pending" });
    const body = await expectPaymentError(
      await t.pay({ signature, amount: 0.01, token: "USDC" }),
      "TRANSACTION_NOT_CONFIRMED",
    );
    expect(body.retryable).toBe(true);
    t.lookups.set(signature, {
      kind: "found",
      transaction: usdcPayment(10_000n, { blockTime: recentBlockTime() }),
    });
    expect((await t.pay({ signature, amount: 0.01, token: "USDC" })).status).toBe(200);
  });

  test("SOL instead of USDC -> 400 wrong token", async () => {
    const t = build();
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: parsedTx({ blockTime: recentBlockTime(), lamports: [lamportsTo(WALLET, 10_000_000)] }),
    });
    const body = await expectPaymentError(
      await t.pay({ signature, amount: 0.01, token: "USDC" }),
      "WRONG_TOKEN",
    );
    expect(body.error).toContain("SOL");
  });

  test("another mint -> 400 wrong token", async () => {
    const t = build();
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: parsedTx({
        blockTime: recentBlockTime(),
        tokens: [{ owner: WALLET, mint: OTHER_MINT, pre: 0n, post: 10_000n }],
      }),
    });
    await expectPaymentError(await t.pay({ signature, amount: 0.01, token: "USDC" }), "WRONG_TOKEN");
  });

  test("USDC to another wallet -> 400 wrong recipient", async () => {
    const t = build();
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: parsedTx({
        blockTime: recentBlockTime(),
        tokens: [payerUsdc(10_000n), { owner: STRANGER, mint: USDC_MINT, pre: 0n, post: 10_000n }],
      }),
    });
    await expectPaymentError(await t.pay({ signature, amount: 0.01, token: "USDC" }), "WRONG_RECIPIENT");
  });

  test("amount received more than 1% below the claim -> 400; within 1% -> granted", async () => {
    const t = build();
    const short = newSignature();
    t.lookups.set(short, {
      kind: "found",
      transaction: usdcPayment(98_999n, { blockTime: recentBlockTime() }),
    });
    await expectPaymentError(
      await t.pay({ signature: short, amount: 0.1, token: "USDC" }),
      "INSUFFICIENT_AMOUNT",
    );
    const close = newSignature();
    t.lookups.set(close, {
      kind: "found",
      transaction: usdcPayment(99_000n, { blockTime: recentBlockTime() }),
    });
    expect(
      (await (await t.pay({ signature: close, amount: 0.1, token: "USDC" })).json()).queriesGranted,
    ).toBe(100);
  });

  test("failed transaction -> 400", async () => {
    const t = build();
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: usdcPayment(10_000n, {
        blockTime: recentBlockTime(),
        err: { InstructionError: [0, "Custom"] },
      }),
    });
    await expectPaymentError(await t.pay({ signature, amount: 0.01, token: "USDC" }), "TRANSACTION_FAILED");
  });

  test("signature already used -> 400, by this or any other client, and no second grant", async () => {
    const t = build({ freeQueries: 0 });
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: usdcPayment(10_000n, { blockTime: recentBlockTime() }),
    });
    expect((await t.pay({ signature, amount: 0.01, token: "USDC" })).status).toBe(200);
    await expectPaymentError(
      await t.pay({ signature, amount: 0.01, token: "USDC" }),
      "SIGNATURE_ALREADY_USED",
    );
    await expectPaymentError(
      await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.60"),
      "SIGNATURE_ALREADY_USED",
    );
    expect((await (await t.call("/api/status")).json()).remaining).toBe(10);
    expect((await (await t.call("/api/status", {}, "198.51.100.60")).json()).remaining).toBe(0);
  });

  test("a transfer carrying another client's memo reference cannot be claimed", async () => {
    const t = build();
    const victim = await (await t.call("/api/payment/info", {}, "198.51.100.70")).json();
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: usdcPayment(10_000n, { blockTime: recentBlockTime(), memos: [victim.memo] }),
    });
    await expectPaymentError(
      await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.71"),
      "MEMO_MISMATCH",
    );
    expect((await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.70")).status).toBe(200);
  });

  test("with the memo made mandatory, a transfer without our memo is refused", async () => {
    const t = build({ memoRequired: true });
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: usdcPayment(10_000n, { blockTime: recentBlockTime() }),
    });
    await expectPaymentError(await t.pay({ signature, amount: 0.01, token: "USDC" }), "MEMO_REQUIRED");
  });

  test("RPC outage -> 503 with Retry-After; the signature stays claimable", async () => {
    const t = build();
    const signature = newSignature();
    t.lookups.set(signature, {
      kind: "found",
      transaction: usdcPayment(10_000n, { blockTime: recentBlockTime() }),
    });
    t.chainFailure.value = chainDown();
    const res = await t.pay({ signature, amount: 0.01, token: "USDC" });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    t.chainFailure.value = undefined;
    expect((await t.pay({ signature, amount: 0.01, token: "USDC" })).status).toBe(200);
  });

  test("rejections and grants are logged without secrets and counted in metrics", async () => {
    const t = build();
    await t.pay({ signature: newSignature(), amount: 5, token: "USDC" });
    expect(t.lines.some((l) => l.msg === "payment rejected" && l.reason === "INVALID_AMOUNT")).toBe(true);
    expect(await t.metricsText()).toContain('payment_rejections_total{reason="INVALID_AMOUNT"} 1');
  });
});

describe("GET /api/payment/info", () => {
  test("returns the spec's fields, ordered instructions and a stable per-client memo", async () => {
    const t = build();
    const info = await (await t.call("/api/payment/info")).json();
    expect(info).toMatchObject({
      amount: 0.01,
      token: "USDC",
      network: "devnet",
      recipient: WALLET,
      usdcMint: USDC_MINT,
    });
    expect(info.instructions[0]).toContain("0.01");
    expect(info.instructions.join(" ")).toContain(WALLET);
    expect(info.instructions.join(" ")).toContain("/api/payment");
    const again = await (await t.call("/api/payment/info")).json();
    expect(again.memo).toBe(info.memo);
    const other = await (await t.call("/api/payment/info", {}, "198.51.100.99")).json();
    expect(other.memo).not.toBe(info.memo);
  });
});
