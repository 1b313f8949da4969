/** Real SPL transfers through the local chain and how getTransaction & co. report them. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Address, getBase58Encoder, isSolanaError, type Signature } from "@solana/kit";
import { STATUS_CACHE_SLOTS } from "../../dev/localnet/rpc-transactions.ts";
import { associatedTokenAccount } from "../../src/solana/usdc-transfer.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.stop());

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const MEMO_V3 = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";

describe("a USDC transfer that creates the recipient's token account", () => {
  let to: Address;
  let signature: Signature;
  beforeAll(async () => {
    to = await chain.freshAddress();
    signature = await chain.sendUsdc({ to, units: 123_456n, memo: "ref-42" });
  });

  test("jsonParsed: pre/post token balances, with no pre balance for the new account", async () => {
    const tx = await chain.parsedTransaction(signature);
    expect(tx?.meta?.err).toBeNull();
    const keys = tx?.transaction.message.accountKeys.map((key) => key.pubkey) ?? [];
    const recipientAta = await associatedTokenAccount(to, chain.mint);
    const index = keys.indexOf(recipientAta);
    expect(index).toBeGreaterThan(0);
    expect(tx?.meta?.preTokenBalances?.some((b) => b.accountIndex === index)).toBe(false);
    const post = tx?.meta?.postTokenBalances?.find((b) => b.accountIndex === index);
    expect(post).toMatchObject({ mint: chain.mint, owner: to, programId: TOKEN_PROGRAM });
    expect<unknown>(post?.uiTokenAmount).toEqual({
      amount: "123456",
      decimals: 6,
      uiAmount: 0.123456,
      uiAmountString: "0.123456",
    });
    const payerAta = keys.indexOf(await associatedTokenAccount(chain.payer.address, chain.mint));
    const pre = BigInt(
      tx?.meta?.preTokenBalances?.find((b) => b.accountIndex === payerAta)?.uiTokenAmount.amount ?? "0",
    );
    const after = BigInt(
      tx?.meta?.postTokenBalances?.find((b) => b.accountIndex === payerAta)?.uiTokenAmount.amount ?? "0",
    );
    expect(pre - after).toBe(123_456n);
  });

  test("jsonParsed: account keys, parsed transferChecked and memo, fee, block time", async () => {
    const tx = await chain.parsedTransaction(signature);
    const first = tx?.transaction.message.accountKeys[0];
    expect(first).toEqual({
      pubkey: chain.payer.address,
      signer: true,
      writable: true,
      source: "transaction",
    });
    const instructions = (tx?.transaction.message.instructions ?? []) as ReadonlyArray<
      Record<string, unknown>
    >;
    expect(instructions.map((ix) => ix.parsed as { type?: string } | string | undefined)).toEqual([
      expect.objectContaining({ type: "createIdempotent" }),
      expect.objectContaining({ type: "transferChecked" }),
      "ref-42",
    ]);
    expect(instructions[1]).toMatchObject({
      program: "spl-token",
      parsed: {
        info: {
          mint: chain.mint,
          authority: chain.payer.address,
          tokenAmount: { amount: "123456", decimals: 6n },
        },
      },
    });
    expect(instructions[2]).toMatchObject({ program: "spl-memo", programId: MEMO_V3 });
    expect<unknown>(tx?.meta?.fee).toBe(5000n);
    expect((tx?.meta?.preBalances[0] ?? 0n) - (tx?.meta?.postBalances[0] ?? 0n)).toBe(5000n + 2_039_280n);
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect(tx?.blockTime).toBeGreaterThan(now - 60n);
    expect(tx?.blockTime).toBeLessThanOrEqual(now + 1n);
    expect(tx?.meta?.innerInstructions?.length).toBe(1);
  });

  test("json encoding: plain account keys and base58 instruction data", async () => {
    const tx = await chain.rpc
      .getTransaction(signature, {
        encoding: "json",
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(tx?.transaction.message.accountKeys[0]).toBe(chain.payer.address);
    const memo = tx?.transaction.message.instructions[2];
    expect(new TextDecoder().decode(getBase58Encoder().encode(memo?.data ?? ""))).toBe("ref-42");
    expect<unknown>(tx?.transaction.message.accountKeys[memo?.programIdIndex ?? 0]).toBe(MEMO_V3);
    expect(tx?.transaction.message.header.numRequiredSignatures).toBe(1);
    expect(tx?.meta?.postTokenBalances?.length).toBe(2);
  });

  test("without maxSupportedTransactionVersion a v0 transaction is refused, as by a validator", async () => {
    const error = await chain.rpc
      .getTransaction(signature, { encoding: "json" })
      .send()
      .catch((e: unknown) => e);
    expect(isSolanaError(error)).toBe(true);
    expect(String(error)).toContain("maxSupportedTransactionVersion");
    const processed = await chain.rpc
      .getTransaction(signature, {
        encoding: "json",
        commitment: "processed" as "confirmed",
        maxSupportedTransactionVersion: 0,
      })
      .send()
      .catch((e: unknown) => e);
    expect(isSolanaError(processed)).toBe(true);
  });

  test("statuses and history of the recipient, newest first, with the memo", async () => {
    const second = await chain.sendUsdc({ to, units: 1000n });
    const history = await chain.rpc.getSignaturesForAddress(to).send();
    expect(history.map((entry) => entry.signature)).toEqual([second, signature]);
    expect(history[1]?.memo).toBe("[6] ref-42");
    expect(history[0]?.memo).toBeNull();
    expect((await chain.rpc.getSignaturesForAddress(to, { limit: 1 }).send()).length).toBe(1);
    expect(
      (await chain.rpc.getSignaturesForAddress(to, { before: second }).send()).map((e) => e.signature),
    ).toEqual([signature]);
    const statuses = (await chain.rpc.getSignatureStatuses([signature, chain.randomSignature()]).send())
      .value;
    expect(statuses[0]).toMatchObject({ err: null, confirmationStatus: "finalized" });
    expect(statuses[1]).toBeNull();
  });

  test("a status older than the recent-status cache is found only by searching the history", async () => {
    const landed = await chain.sendUsdc({ to, units: 1n });
    const statusOf = async (searchTransactionHistory: boolean) =>
      (await chain.rpc.getSignatureStatuses([landed], { searchTransactionHistory }).send()).value[0];
    chain.localnet.skipBlocks(STATUS_CACHE_SLOTS - 1);
    expect(await statusOf(false)).toMatchObject({ err: null });
    chain.localnet.skipBlocks(2);
    expect(await statusOf(false)).toBeNull();
    expect(await statusOf(true)).toMatchObject({ err: null, confirmationStatus: "finalized" });
  });
});

describe("failures", () => {
  test("a transfer that fails on chain is recorded with meta.err and its fee", async () => {
    const signature = await chain.sendFailingUsdc({ to: await chain.freshAddress() });
    const tx = await chain.parsedTransaction(signature);
    // kit reads every JSON integer as a bigint.
    expect<unknown>(tx?.meta?.err).toEqual({ InstructionError: [1n, { Custom: 1n }] });
    expect((tx?.meta?.preBalances[0] ?? 0n) - (tx?.meta?.postBalances[0] ?? 0n)).toBe(tx?.meta?.fee ?? -1n);
    expect(tx?.meta?.postTokenBalances).toEqual(tx?.meta?.preTokenBalances);
    const status = (await chain.rpc.getSignatureStatuses([signature]).send()).value[0];
    expect<unknown>(status?.err).toEqual({ InstructionError: [1n, { Custom: 1n }] });
  });

  test("with preflight the same failure is refused and nothing is recorded", async () => {
    const before = await chain.usdcBalance(chain.payer.address);
    const error = await chain
      .sendUsdc({ to: await chain.freshAddress(), units: 10n ** 15n })
      .catch((e: unknown) => e);
    expect(isSolanaError(error)).toBe(true);
    expect(String(error)).toMatch(/simulation failed/i);
    expect(await chain.usdcBalance(chain.payer.address)).toBe(before);
  });
});

describe("other transfers", () => {
  test("a SOL transfer is parsed as a system transfer and moves no tokens", async () => {
    const to = await chain.freshAddress();
    const tx = await chain.parsedTransaction(await chain.sendSol(to, 5_000_000n));
    expect(tx?.transaction.message.instructions[0]).toMatchObject({
      program: "system",
      parsed: {
        type: "transfer",
        info: { source: chain.payer.address, destination: to, lamports: 5_000_000n },
      },
    });
    expect(tx?.meta?.postTokenBalances).toEqual([]);
  });

  test("another mint is reported with its own mint address", async () => {
    const to = await chain.freshAddress();
    const tx = await chain.parsedTransaction(await chain.sendOtherMint(to, 70_000n));
    const received = tx?.meta?.postTokenBalances?.find((b) => b.owner === to);
    expect(received?.mint).not.toBe(chain.mint);
    expect<unknown>(received?.uiTokenAmount.amount).toBe("70000");
  });

  test("a split transfer into two token accounts of one wallet shows both", async () => {
    const to = await chain.freshAddress();
    const tx = await chain.parsedTransaction(
      await chain.sendUsdcSplit({ to, parts: [30_000n, 20_000n], separateAccount: true }),
    );
    const mine = tx?.meta?.postTokenBalances?.filter((b) => b.owner === to) ?? [];
    expect<unknown>(mine.map((b) => b.uiTokenAmount.amount).sort()).toEqual(["20000", "30000"]);
  });

  test("a funded extra payer can pay", async () => {
    const payer = await chain.fundPayer({ usdcUnits: 5_000_000n });
    const to = await chain.freshAddress();
    await chain.sendUsdc({ to, units: 4_000_000n, from: payer });
    expect(await chain.usdcBalance(to)).toBe(4_000_000n);
    expect(await chain.usdcBalance(payer.address)).toBe(1_000_000n);
  });
});
