import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Option from "effect/Option";
import { encodeBase58 } from "../../core/base58.ts";
import type { RawClaim } from "../../core/payments/payment-claim.ts";
import { walletAccount } from "../../core/payments/wallet-credits.ts";
import { buyQueries } from "../../core/use-cases/buy-queries.ts";
import {
  PAYER,
  parsedTx,
  payerUsdc,
  recentBlockTime,
  STRANGER,
  USDC_MINT,
  usdcPayment,
} from "../support/parsed-tx.ts";
import { kindOf } from "../support/rejection-kind.ts";
import { makeWorld, referenceOf, SETTINGS, type World, worldLayer } from "../support/use-case-layers.ts";

const IDENTITY = "198.51.100.4";
const SIGNATURE = encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => (i * 7 + 9) & 0xff));
const settings = (memoRequired = false) => ({ ...SETTINGS, memoRequired });
const claim: RawClaim = { signature: SIGNATURE, amount: 0.05, token: "USDC" };

// The built transactions have a block time in 2025; the use case reads the real clock, so
// they are rebuilt with a recent block time.
const run = (w: World, raw: RawClaim = claim, memoRequired = false) =>
  Effect.runPromiseExit(
    buyQueries(IDENTITY, raw).pipe(Effect.provide(worldLayer(w, settings(memoRequired)))),
  );
const tagOf = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
  Exit.isSuccess(exit)
    ? "success"
    : kindOf(Option.getOrUndefined(Exit.findErrorOption(exit)) ?? { _tag: "defect" });

describe("buyQueries", () => {
  test("a verified transfer is claimed once: signature used and queries granted together", async () => {
    const w = makeWorld();
    w.lookup = { kind: "found", transaction: usdcPayment(50_000n, { blockTime: recentBlockTime() }) };
    const exit = await run(w);
    if (Exit.isFailure(exit)) throw new Error("failed");
    expect(exit.value.claim.queries).toBe(50);
    expect(exit.value.received).toBe(50_000n);
    expect(exit.value.rateLimit.remaining).toBe(53);
    // No memo of this client: the submitter may have only seen the transfer on chain, so it is
    // credited with this payment's queries (as the spec's POST /api/payment does), never given
    // the payer's wallet (and its whole balance).
    expect(exit.value.madeForClient).toBe(false);
    expect(exit.value.payer).toBeUndefined();
    expect(w.claimed.get(SIGNATURE)).toEqual({ identity: IDENTITY, queries: 50 });
    expect(w.calls).toEqual(["isClaimed", `lookup:${SIGNATURE.slice(0, 6)}`, "claim:50"]);
  });

  test("a transfer with this client's memo was made for it; one with no single payer credits the identity", async () => {
    const bound = makeWorld();
    bound.lookup = {
      kind: "found",
      transaction: usdcPayment(50_000n, {
        blockTime: recentBlockTime(),
        memos: [`docs-chat:${referenceOf(IDENTITY)}`],
      }),
    };
    const boundExit = await run(bound);
    if (Exit.isFailure(boundExit)) throw new Error("failed");
    expect(boundExit.value.madeForClient).toBe(true);
    // The wallet that paid owns the credits, not the client that submitted the signature.
    expect(boundExit.value.payer).toBe(PAYER);
    expect(bound.claimed.get(SIGNATURE)).toEqual({ identity: walletAccount(PAYER), queries: 50 });

    const multisig = makeWorld();
    multisig.lookup = {
      kind: "found",
      transaction: usdcPayment(50_000n, {
        blockTime: recentBlockTime(),
        transfers: [{ amount: 50_000n, to: 2, authority: null }],
      }),
    };
    const exit = await run(multisig);
    if (Exit.isFailure(exit)) throw new Error(`failed: ${String(exit.cause)}`);
    expect(exit.value.payer).toBeUndefined();
    expect(multisig.claimed.get(SIGNATURE)).toEqual({ identity: IDENTITY, queries: 50 });
  });

  test("the same signature again is refused before any RPC call", async () => {
    const w = makeWorld();
    w.lookup = { kind: "found", transaction: usdcPayment(50_000n, { blockTime: recentBlockTime() }) };
    await run(w);
    w.calls.length = 0;
    expect(tagOf(await run(w))).toBe("SignatureAlreadyUsed");
    expect(w.calls).toEqual(["isClaimed"]);
  });

  test("losing a claim race to another instance is SignatureAlreadyUsed, nothing granted", async () => {
    const w = makeWorld();
    w.lookup = { kind: "found", transaction: usdcPayment(50_000n, { blockTime: recentBlockTime() }) };
    w.raceLost = true;
    expect(tagOf(await run(w))).toBe("SignatureAlreadyUsed");
    expect(w.quota.paidCredits).toBe(0);
  });

  test("a bad claim fails before the store or chain are asked", async () => {
    const w = makeWorld();
    expect(tagOf(await run(w, { ...claim, amount: 2 }))).toBe("InvalidAmount");
    expect(tagOf(await run(w, { ...claim, signature: "abc" }))).toBe("InvalidSignature");
    expect(tagOf(await run(w, { ...claim, token: "SOL" }))).toBe("InvalidToken");
    expect(w.calls).toEqual([]);
  });

  test("pending and unknown transactions are retryable refusals", async () => {
    const w = makeWorld();
    w.lookup = { kind: "pending" };
    expect(tagOf(await run(w))).toBe("TransactionNotConfirmed");
    w.lookup = { kind: "missing" };
    expect(tagOf(await run(w))).toBe("TransactionNotFound");
    expect(w.claimed.size).toBe(0);
  });

  test("a transfer that fails verification is never claimed", async () => {
    const w = makeWorld();
    const toStranger = parsedTx({
      blockTime: recentBlockTime(),
      tokens: [payerUsdc(50_000n), { owner: STRANGER, mint: USDC_MINT, pre: 0n, post: 50_000n }],
    });
    w.lookup = { kind: "found", transaction: toStranger };
    expect(tagOf(await run(w))).toBe("WrongRecipient");
    w.lookup = { kind: "found", transaction: usdcPayment(40_000n, { blockTime: recentBlockTime() }) };
    expect(tagOf(await run(w))).toBe("InsufficientAmount");
    expect(w.calls.filter((call) => call.startsWith("claim"))).toEqual([]);
  });

  test("the memo must carry this identity's reference", async () => {
    const w = makeWorld();
    w.lookup = {
      kind: "found",
      transaction: usdcPayment(50_000n, {
        blockTime: recentBlockTime(),
        memos: [`docs-chat:${referenceOf("198.51.100.5")}`],
      }),
    };
    expect(tagOf(await run(w))).toBe("MemoMismatch");
    expect(tagOf(await run(w, claim, true))).toBe("MemoMismatch");
    w.lookup = {
      kind: "found",
      transaction: usdcPayment(50_000n, {
        blockTime: recentBlockTime(),
        memos: [`docs-chat:${referenceOf(IDENTITY)}`],
      }),
    };
    expect(tagOf(await run(w, claim, true))).toBe("success");
  });

  test("a reference stored for this identity before references were sealed is its own too; another's is not", async () => {
    const w = makeWorld();
    w.legacyReferences.set(IDENTITY, "Rk3nTz8Qw2pLx9Vb");
    w.legacyReferences.set("198.51.100.5", "Zq7pWx2LmN4vB8cD");
    const paidWith = (memo: string) => {
      w.lookup = {
        kind: "found",
        transaction: usdcPayment(50_000n, { blockTime: recentBlockTime(), memos: [memo] }),
      };
    };
    paidWith("docs-chat:Zq7pWx2LmN4vB8cD");
    expect(tagOf(await run(w, claim, true))).toBe("MemoMismatch");
    paidWith("docs-chat:Rk3nTz8Qw2pLx9Vb");
    const exit = await run(w, claim, true);
    if (Exit.isFailure(exit)) throw new Error("failed");
    expect(exit.value.madeForClient).toBe(true);
    expect(w.claimed.get(SIGNATURE)).toEqual({ identity: walletAccount(PAYER), queries: 50 });
  });

  test("a transfer whose memo binds it to an x402 payment request is never claimed here", async () => {
    const w = makeWorld();
    for (const memos of [
      ["x402:pay_abcdefgh12345678"],
      [`docs-chat:${referenceOf(IDENTITY)}`, " x402:pay_abcdefgh12345678"],
    ]) {
      w.lookup = {
        kind: "found",
        transaction: usdcPayment(50_000n, { blockTime: recentBlockTime(), memos }),
      };
      expect(tagOf(await run(w))).toBe("MemoReserved");
    }
    w.lookup = {
      kind: "found",
      transaction: usdcPayment(50_000n, {
        blockTime: recentBlockTime(),
        innerMemos: ["x402:pay_abcdefgh12345678"],
      }),
    };
    expect(tagOf(await run(w))).toBe("MemoReserved");
    expect(w.calls.filter((call) => call.startsWith("claim"))).toEqual([]);
  });
});
