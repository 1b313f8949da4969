/**
 * On the embedded local chain (nothing configured, as after `npm start`) a visitor with no
 * wallet pays with the demo wallet: a key made in the page, funded by the service's faucet
 * with real local-chain transactions, signing a real transfer. The faucet refuses bad input.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSolanaRpc } from "@solana/kit";
import type { Browser } from "playwright-core";
import { tokenBalance } from "../support/localnet.ts";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import { chromiumAvailable, launchBrowser, newPage } from "./support/browser.ts";
import { localnetOf, openWalletChoice, waitForAnswer } from "./support/widget-page.ts";

describe.skipIf(!chromiumAvailable())("the demo wallet of the local chain", () => {
  let service: ServiceProcess;
  let browser: Browser;

  beforeAll(async () => {
    service = await startService({ env: { RATE_LIMIT_FREE_QUERIES: "0" } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.dispose();
  });

  test("the faucet funds a valid address only", async () => {
    expect((await service.call("/api/demo-wallet")).status).toBe(200);
    for (const body of [{}, { address: "not-base58!" }, { address: 42 }, { address: "1".repeat(60) }]) {
      const res = await service.call("/api/demo-wallet", body);
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe("INVALID_REQUEST");
    }
  });

  test("a visitor without a wallet pays 0.01 with the demo wallet and gets the answer", async () => {
    const chain = await localnetOf(service.cwd);
    const rpc = createSolanaRpc(chain.rpcUrl);
    const received = await tokenBalance(rpc, chain.mint, chain.serviceWallet);
    const context = await browser.newContext();
    const { page, problems } = await newPage(context);
    const w = await openWalletChoice(page, `${service.url}/`, "How do I pay for more questions?");
    await w.panel.getByRole("button", { name: "Pay with Demo wallet (local chain)" }).click();
    await w.panel.getByText("Payment verified: 10 questions added.").waitFor({ timeout: 30_000 });
    await waitForAnswer(page, 0);
    await w.quota.getByText("Questions left: 9").waitFor();
    expect(await tokenBalance(rpc, chain.mint, chain.serviceWallet)).toBe(received + 10_000n);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
