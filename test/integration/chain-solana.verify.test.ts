/**
 * Core's verifyTransfer over real transactions read through the adapter from the local chain:
 * the whole on-chain half of a payment, with no hand-built replies.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { BaseUnits } from "../../core/payments/money.ts";
import type { ParsedTransaction } from "../../core/payments/parsed-transaction.ts";
import { verifyTransfer } from "../../core/payments/verify-transfer.ts";
import { ChainReader } from "../../core/ports/chain-reader.ts";
import { newKeypair } from "../../dev/localnet/keys.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { kindOf } from "../support/rejection-kind.ts";

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.stop());

const DAY_MS = 86_400_000;
const PREFIX = "docs-chat:";

const read = async (signature: string): Promise<ParsedTransaction | undefined> => {
  const lookup = await Effect.runPromise(
    Effect.gen(function* () {
      return yield* (yield* ChainReader).lookup(signature);
    }).pipe(Effect.provide(ChainSolana.layer({ rpcUrl: chain.url }))),
  );
  return lookup.kind === "found" ? lookup.transaction : undefined;
};

const verify = async (signature: string, claimed: bigint, memo = { expected: "ref-1", required: false }) => {
  return verifyTransfer(await read(signature), {
    usdcMint: chain.mint,
    wallet: chain.serviceWallet,
    claimed: BaseUnits(claimed),
    now: Date.now(),
    memo: { prefix: PREFIX, ...memo },
  });
};

const failureTag = (result: Awaited<ReturnType<typeof verify>>) =>
  Result.isFailure(result) ? kindOf(result.failure) : "accepted";

describe("verifyTransfer on real transactions", () => {
  test("accepts a real USDC transfer to the service wallet, with our memo", async () => {
    const signature = await chain.sendUsdc({ units: 100_000n, memo: `${PREFIX}ref-1` });
    const result = await verify(signature, 100_000n, { expected: "ref-1", required: true });
    expect(Result.isSuccess(result) && result.success.received).toBe(100_000n);
  });

  test("sums a split transfer into two token accounts of the wallet", async () => {
    const signature = await chain.sendUsdcSplit({ parts: [60_000n, 40_000n], separateAccount: true });
    const result = await verify(signature, 100_000n);
    expect(Result.isSuccess(result) && result.success.received).toBe(100_000n);
  });

  test("rejects a SOL transfer, another mint, a stranger as recipient, a failed transfer", async () => {
    expect(failureTag(await verify(await chain.sendSol(chain.serviceWallet, 50_000_000n), 50_000n))).toBe(
      "WrongToken",
    );
    expect(failureTag(await verify(await chain.sendOtherMint(chain.serviceWallet, 50_000n), 50_000n))).toBe(
      "WrongToken",
    );
    const stranger = (await newKeypair()).signer.address;
    expect(failureTag(await verify(await chain.sendUsdc({ to: stranger, units: 50_000n }), 50_000n))).toBe(
      "WrongRecipient",
    );
    expect(failureTag(await verify(await chain.sendFailingUsdc(), 50_000n))).toBe("TransactionFailed");
  });

  test("rejects less than claimed (beyond the 1% tolerance) and a transaction older than the memory", async () => {
    expect(failureTag(await verify(await chain.sendUsdc({ units: 98_000n }), 100_000n))).toBe(
      "InsufficientAmount",
    );
    expect(failureTag(await verify(await chain.sendUsdc({ units: 99_000n }), 100_000n))).toBe("accepted");
    const old = await chain.sendUsdc({ units: 100_000n, ageMs: 31 * DAY_MS });
    expect(failureTag(await verify(old, 100_000n))).toBe("TransactionTooOld");
  });

  test("a signature the chain does not know is not found", async () => {
    expect(failureTag(await verify(chain.randomSignature(), 100_000n))).toBe("TransactionNotFound");
  });
});
