/** Driving the widget as a visitor does, through its open shadow root (playwright's CSS pierces it). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Address, createSolanaRpc, type Signature } from "@solana/kit";
import type { BrowserContext, Page } from "playwright-core";
import { readStateFile, serviceStateFile } from "../../../dev/localnet/state-file.ts";
import { REPO_ROOT } from "../../support/service-process.ts";

export const widget = (page: Page) => ({
  launcher: page.locator("docs-chat-widget .launcher"),
  dialog: page.locator("docs-chat-widget [role=dialog]"),
  input: page.locator("docs-chat-widget textarea"),
  quota: page.locator("docs-chat-widget .quota"),
  answers: page.locator("docs-chat-widget article.msg.bot"),
  panel: page.locator("docs-chat-widget section.pay"),
  errors: page.locator("docs-chat-widget .error"),
});

/** Types a question and waits until its answer is complete (aria-busy false, sources drawn). */
export const ask = async (page: Page, question: string) => {
  const w = widget(page);
  const before = await w.answers.count();
  await w.input.fill(question);
  await w.input.press("Enter");
  return before;
};

export const waitForAnswer = async (page: Page, index: number) => {
  const answer = widget(page).answers.nth(index);
  await answer.locator(".sources li").first().waitFor({ timeout: 15_000 });
  await page.waitForFunction(
    (i) =>
      document
        .querySelector("docs-chat-widget")
        ?.shadowRoot?.querySelectorAll("article.msg.bot")
        [i]?.getAttribute("aria-busy") === "false",
    index,
  );
  return answer;
};

let walletScript: Promise<string> | undefined;

/** The bundled test wallet (see test-wallet.ts). */
const testWalletScript = () => {
  walletScript ??= Bun.build({
    entrypoints: [join(REPO_ROOT, "test/browser/support/test-wallet.ts")],
    format: "iife",
    target: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
  }).then((result) => {
    const output = result.outputs[0];
    if (!result.success || output === undefined) throw new Error(result.logs.map(String).join("\n"));
    return output.text();
  });
  return walletScript;
};

/**
 * Registers the test wallet in every page of `context`: it holds `secretKey` and sends through
 * `rpcUrl` (the wallet's own RPC, as an extension has). Resolves to the signatures it sent.
 */
export const installTestWallet = async (
  context: BrowserContext,
  options: { readonly secretKey: ReadonlyArray<number>; readonly rpcUrl: string; readonly chain?: string },
) => {
  const sent: Signature[] = [];
  const rpc = createSolanaRpc(options.rpcUrl);
  await context.exposeFunction("testWalletSend", async (wire: string) => {
    const signature = await rpc
      .sendTransaction(wire as never, { encoding: "base64", preflightCommitment: "confirmed" })
      .send();
    sent.push(signature);
    return signature;
  });
  await context.addInitScript(
    ({ secretKey, chain }) => {
      (window as unknown as { testWalletConfig: unknown }).testWalletConfig = { secretKey, chain };
    },
    { secretKey: [...options.secretKey], chain: options.chain ?? "solana:localnet" },
  );
  await context.addInitScript({ content: await testWalletScript() });
  return sent;
};

/** The demo payer of a service's embedded local chain (its state file, one per service port). */
export const localnetOf = async (service: { readonly cwd: string; readonly port: number }) => {
  const path = join(service.cwd, serviceStateFile(service.port));
  const state = await readStateFile(path);
  if (state === undefined) throw new Error(`no local chain state at ${path}`);
  const raw = JSON.parse(readFileSync(path, "utf8")) as { payer: number[] };
  return { ...state, payerSecretKey: raw.payer, serviceWallet: state.serviceWallet as Address };
};

/** The service's variables for taking payments on a test chain (CHAIN_NETWORK=localnet), no free questions. */
export const payOnChainEnv = (chain: { url: string; mint: string; serviceWallet: string }) => ({
  CHAIN_NETWORK: "localnet",
  SOLANA_RPC_URL: chain.url,
  USDC_MINT_ADDRESS: chain.mint,
  PAYMENT_WALLET_ADDRESS: chain.serviceWallet,
  RATE_LIMIT_FREE_QUERIES: "0",
});

/** Opens the widget on `url`, asks `question` (which gets the 402) and opens the wallet list. */
export const openWalletChoice = async (page: Page, url: string, question: string) => {
  const w = widget(page);
  await page.goto(url);
  await w.launcher.click();
  await ask(page, question);
  await w.panel.getByRole("button", { name: "Browser wallet" }).click();
  return w;
};
