/** The local chain's cluster and account methods, through the @solana/kit client. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isSolanaError, lamports } from "@solana/kit";
import { associatedTokenAccount } from "../../src/solana/usdc-transfer.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.stop());

describe("cluster methods", () => {
  test("health, version, genesis hash and slots", async () => {
    expect(await chain.rpc.getHealth().send()).toBe("ok");
    expect((await chain.rpc.getVersion().send())["solana-core"]).toMatch(/^\d+\.\d+\.\d+/);
    const genesis = await chain.rpc.getGenesisHash().send();
    expect(await chain.rpc.getGenesisHash().send()).toBe(genesis);
    const slot = await chain.rpc.getSlot().send();
    await chain.sendSol(await chain.freshAddress());
    expect(await chain.rpc.getSlot().send()).toBeGreaterThan(slot);
    expect(await chain.rpc.getBlockHeight().send()).toBeGreaterThan(0n);
  });

  test("each blockhash is fresh and valid until it expires; unknown ones are invalid", async () => {
    const a = (await chain.rpc.getLatestBlockhash().send()).value;
    const b = (await chain.rpc.getLatestBlockhash().send()).value;
    expect(a.blockhash).not.toBe(b.blockhash);
    expect(b.lastValidBlockHeight).toBeGreaterThan(a.lastValidBlockHeight);
    expect((await chain.rpc.isBlockhashValid(a.blockhash).send()).value).toBe(true);
    const unknown = "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM" as typeof a.blockhash;
    expect((await chain.rpc.isBlockhashValid(unknown).send()).value).toBe(false);
    // Every request is a new block; 150 blocks later the first hash has expired, as on a cluster.
    for (let i = 0; i < 150; i++) await chain.rpc.getLatestBlockhash().send();
    expect((await chain.rpc.isBlockhashValid(a.blockhash).send()).value).toBe(false);
  });

  test("airdrops are real transfers that show in the balance", async () => {
    const to = await chain.freshAddress();
    expect<unknown>((await chain.rpc.getBalance(to).send()).value).toBe(0n);
    const signature = await chain.rpc.requestAirdrop(to, lamports(2_000_000_000n)).send();
    expect<unknown>((await chain.rpc.getBalance(to).send()).value).toBe(2_000_000_000n);
    const status = (await chain.rpc.getSignatureStatuses([signature]).send()).value[0];
    expect(status?.err).toBeNull();
  });

  test("an airdrop too small to be rent-exempt is refused and changes nothing", async () => {
    const to = await chain.freshAddress();
    const refused = await chain.rpc
      .requestAirdrop(to, lamports(1n))
      .send()
      .catch((e: unknown) => e);
    expect(isSolanaError(refused)).toBe(true);
    expect<unknown>((await chain.rpc.getBalance(to).send()).value).toBe(0n);
  });

  test("rent exemption matches the SVM's rent (token account: 2039280 lamports)", async () => {
    expect<unknown>(await chain.rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(2_039_280n);
  });
});

describe("account methods", () => {
  test("the demo payer holds 1000 test USDC in its associated token account", async () => {
    const ata = await associatedTokenAccount(chain.payer.address, chain.mint);
    const balance = (await chain.rpc.getTokenAccountBalance(ata).send()).value;
    expect(balance.decimals).toBe(6);
    expect(BigInt(balance.amount)).toBeGreaterThan(0n);
    const listed = (
      await chain.rpc
        .getTokenAccountsByOwner(chain.payer.address, { mint: chain.mint }, { encoding: "jsonParsed" })
        .send()
    ).value;
    expect(listed.map((entry) => entry.pubkey)).toEqual([ata]);
    const info = listed[0]?.account.data.parsed.info;
    expect(info?.owner).toBe(chain.payer.address);
    expect(info?.mint).toBe(chain.mint);
    expect(info?.tokenAmount.amount).toBe(balance.amount);
  });

  test("accounts in base64 and jsonParsed; missing accounts are null", async () => {
    const mint = (await chain.rpc.getAccountInfo(chain.mint, { encoding: "base64" }).send()).value;
    expect<unknown>(mint?.owner).toBe("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
    expect(Buffer.from(mint?.data[0] ?? "", "base64").length).toBe(82);
    const parsed = (await chain.rpc.getAccountInfo(chain.mint, { encoding: "jsonParsed" }).send()).value;
    expect(parsed?.data).toMatchObject({
      program: "spl-token",
      parsed: { type: "mint", info: { decimals: 6 } },
    });
    expect(
      (await chain.rpc.getAccountInfo(await chain.freshAddress(), { encoding: "base64" }).send()).value,
    ).toBeNull();
    const many = await chain.rpc
      .getMultipleAccounts([chain.mint, await chain.freshAddress()], { encoding: "base64" })
      .send();
    expect(many.value.map((account) => account === null)).toEqual([false, true]);
  });

  test("token balance of something that is not a token account is an error", async () => {
    const error = await chain.rpc
      .getTokenAccountBalance(chain.mint)
      .send()
      .catch((e: unknown) => e);
    expect(isSolanaError(error)).toBe(true);
    expect(String(error)).toContain("not a Token account");
  });

  test("a wallet without token accounts lists none", async () => {
    const value = (
      await chain.rpc
        .getTokenAccountsByOwner(await chain.freshAddress(), { mint: chain.mint }, { encoding: "jsonParsed" })
        .send()
    ).value;
    expect(value).toEqual([]);
  });
});
