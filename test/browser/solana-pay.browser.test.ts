/**
 * Paying from a phone, on a service configured for a chain (CHAIN_NETWORK=localnet against a
 * test chain): the QR code decodes (jsQR, in the page) to a Solana Pay transfer request with the
 * right recipient, amount, token, reference and memo; a transfer made outside the browser with
 * that reference is found and credited, and the waiting question is answered. With CHAIN_NETWORK
 * set the demo wallet faucet does not exist. Pasted signatures get their own clear refusals.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { AccountRole, type Address, address, type Instruction } from "@solana/kit";
import type { Browser } from "playwright-core";
import { newKeypair } from "../../dev/localnet/keys.ts";
import { signAndSend, usdcTransferInstructions } from "../../src/solana/usdc-transfer.ts";
import { waitFor } from "../support/free-port.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import { chromiumAvailable, launchBrowser, newPage } from "./support/browser.ts";
import {
  ask,
  installTestWallet,
  openWalletChoice,
  payOnChainEnv,
  waitForAnswer,
  widget,
} from "./support/widget-page.ts";

const JSQR_SOURCE = readFileSync(createRequire(import.meta.url).resolve("jsqr/dist/jsQR.js"), "utf8");

describe.skipIf(!chromiumAvailable())("Solana Pay and pasted signatures", () => {
  let chain: TestChain;
  let service: ServiceProcess;
  let browser: Browser;

  beforeAll(async () => {
    chain = await startTestChain();
    service = await startService({ env: payOnChainEnv(chain) });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.dispose();
    await chain?.stop();
  });

  test("with CHAIN_NETWORK set there is no demo wallet faucet (404), but the RPC relay is there", async () => {
    expect((await service.call("/api/demo-wallet")).status).toBe(404);
    const fund = await service.call("/api/demo-wallet", { address: chain.payer.address });
    expect(fund.status).toBe(404);
    const relayed = await service.call("/api/solana-rpc", { jsonrpc: "2.0", id: 1, method: "getSlot" });
    expect(relayed.status).toBe(400); // only the methods the widget needs are relayed
    const blockhash = await service.call("/api/solana-rpc", {
      jsonrpc: "2.0",
      id: 1,
      method: "getLatestBlockhash",
    });
    expect((await blockhash.json()).result.value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  });

  test("the QR code's transfer request is paid outside the browser, detected and credited", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await newPage(context);
    const w = widget(page);
    await page.goto(`${service.url}/`);
    await w.launcher.click();
    await ask(page, "How do I write a file?");
    await w.panel.waitFor();

    // Pasted signatures first: each refusal says what is wrong.
    await w.panel.getByRole("button", { name: "Paste a signature" }).click();
    const paste = async (signature: string) => {
      await w.panel.getByRole("textbox", { name: "Transaction signature" }).fill(signature);
      await w.panel.getByRole("button", { name: "Submit" }).click();
    };
    await paste("not-a-signature");
    await w.panel.getByRole("alert").getByText("That is not a transaction signature").waitFor();
    await paste(await chain.sendSol());
    await w.panel.getByRole("alert").getByText("You sent SOL or another token, not USDC").waitFor();

    await w.panel.getByRole("button", { name: "Phone wallet (QR code)" }).click();
    await w.panel.locator(".qr svg").waitFor();
    await page.evaluate(JSQR_SOURCE);
    const decoded = await page.evaluate(async () => {
      const svg = document.querySelector("docs-chat-widget")?.shadowRoot?.querySelector(".qr svg");
      const image = new Image();
      image.src = `data:image/svg+xml;base64,${btoa(new XMLSerializer().serializeToString(svg!))}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 600;
      const context2d = canvas.getContext("2d")!;
      context2d.fillStyle = "#fff";
      context2d.fillRect(0, 0, 600, 600);
      context2d.drawImage(image, 0, 0, 600, 600);
      const pixels = context2d.getImageData(0, 0, 600, 600);
      const jsQR = (
        window as unknown as { jsQR: (d: Uint8ClampedArray, w: number, h: number) => { data: string } | null }
      ).jsQR;
      return jsQR(pixels.data, 600, 600)?.data;
    });
    expect(decoded).toStartWith(`solana:${chain.serviceWallet}?`);
    const request = new URL(decoded!);
    expect(request.protocol).toBe("solana:");
    expect(request.pathname).toBe(chain.serviceWallet);
    expect(request.searchParams.get("amount")).toBe("0.01");
    expect(request.searchParams.get("spl-token")).toBe(chain.mint);
    const reference = request.searchParams.get("reference")!;
    expect(reference).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const memo = request.searchParams.get("memo")!;
    expect(memo).toMatch(/^docschat:/);
    expect(await w.panel.locator("a.solana-pay-link").getAttribute("href")).toBe(decoded!);

    // A phone wallet pays the request: transferChecked carrying the reference, plus the memo.
    const instructions = await usdcTransferInstructions({
      payer: chain.payer,
      from: chain.payer,
      to: chain.serviceWallet,
      mint: chain.mint,
      units: 10_000n,
      decimals: 6,
      memo,
    });
    const withReference = instructions.map(
      (instruction, index): Instruction =>
        index === 1
          ? {
              ...instruction,
              accounts: [
                ...(instruction.accounts ?? []),
                { address: address(reference) as Address, role: AccountRole.READONLY },
              ],
            }
          : instruction,
    );
    const signature = await signAndSend(chain.rpc, chain.payer, withReference);

    await w.panel.getByText("Payment verified: 10 questions added.").waitFor({ timeout: 20_000 });
    const answer = await waitForAnswer(page, 0);
    expect(await answer.locator(".body").textContent()).not.toBe("");
    await w.quota.getByText("Questions left: 9").waitFor();
    // The same transfer cannot be claimed twice.
    const again = await service.call("/api/payment", { signature, amount: 0.01, token: "USDC" });
    expect((await again.json()).code).toBe("SIGNATURE_ALREADY_USED");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

describe.skipIf(!chromiumAvailable())("a wallet payment that takes time to confirm", () => {
  test("the widget waits, retries while 'not confirmed', shows progress, and succeeds", async () => {
    const chain = await startTestChain({ confirmationDelayMs: 9_000 });
    const service = await startService({ env: payOnChainEnv(chain) });
    const browser = await launchBrowser();
    try {
      const payer = await newKeypair();
      await chain.localnet.airdrop(payer.signer.address, 1_000_000_000n);
      await chain.localnet.mintTokens(payer.signer.address, 1_000_000n);
      const context = await browser.newContext();
      const sent = await installTestWallet(context, { secretKey: [...payer.secretKey], rpcUrl: chain.url });
      const { page, problems } = await newPage(context);
      const w = await openWalletChoice(page, `${service.url}/`, "How do I write a file?");
      // No demo wallet on a configured chain: only the test wallet is offered.
      await w.panel.getByRole("button", { name: "Pay with Test wallet" }).waitFor();
      expect(await w.panel.locator(".wallets button").allTextContents()).toEqual(["Pay with Test wallet"]);
      await w.panel.getByRole("button", { name: "Pay with Test wallet" }).click();
      await w.panel.getByText(/Checking the transfer on chain… \(\d+ s\)/).waitFor({ timeout: 10_000 });
      await w.panel.getByText("Payment verified: 10 questions added.").waitFor({ timeout: 30_000 });
      expect(sent).toHaveLength(1);
      // Claimed more than once: the first claims came back "not confirmed" and were retried.
      const claims = () => service.logs().filter((line) => line.path === "/api/payment");
      // Access lines are written in batches: wait for the last one.
      await waitFor(async () => claims().at(-1)?.status === 200, 2_000, "the granted claim's access line");
      expect(claims().map((line) => line.status)).toContain(400);
      await w.quota.getByText("Questions left: 9").waitFor();
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await service.dispose();
      await chain.stop();
    }
  }, 60_000);
});
