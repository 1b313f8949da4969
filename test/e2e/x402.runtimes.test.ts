/**
 * The client library runs outside Bun: the same automatic client pays the example server from
 * Node (a Bun.build bundle run by the machine's node), from Deno (the TypeScript sources, the
 * `deno` npm package) and from headless Chromium (a browser bundle), with real transfers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeReceiptHeader } from "../../core/payments/x402-receipt.ts";
import { newKeypair } from "../../dev/localnet/keys.ts";
import { CHROMIUM, chromiumAvailable } from "../browser/support/browser.ts";
import { REPO_ROOT } from "../support/service-process.ts";
import { useExampleServer } from "../support/x402-example.ts";
import type { PayInput } from "../support/x402-runtime/pay-and-fetch.ts";

const RUNTIME_DIR = join(REPO_ROOT, "test/support/x402-runtime");
const env = useExampleServer();
let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), "x402-runtimes-"));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** A new payer with SOL and 1 test USDC, as a keypair a foreign runtime can load. */
const payer = async () => {
  const keypair = await newKeypair();
  await env.chain.localnet.airdrop(keypair.signer.address, 1_000_000_000n);
  await env.chain.localnet.mintTokens(keypair.signer.address, 1_000_000n);
  return keypair;
};

/** What a run reports must be a paid premium-data answer from `payerAddress`. */
const expectPaid = (
  result: { status: number; receipt: string | null; body: string },
  payerAddress: string,
) => {
  expect(result.status).toBe(200);
  expect(JSON.parse(result.body)).toMatchObject({ paid: true });
  expect(decodeReceiptHeader(result.receipt ?? "")).toMatchObject({ amount: "0.10", payer: payerAddress });
};

const run = async (command: ReadonlyArray<string>) => {
  const proc = Bun.spawn([...command], { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${command[0]} exited ${code}: ${stderr}`);
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
};

const inputFor = async (): Promise<[PayInput, string]> => {
  const { signer, secretKey } = await payer();
  return [
    { url: `${env.server.url}/premium-data`, rpcUrl: env.chain.url, secretKey: [...secretKey] },
    signer.address,
  ];
};

describe("the x402 client outside Bun", () => {
  test("Node: a bundle of the library, run by node", async () => {
    const built = await Bun.build({
      entrypoints: [join(RUNTIME_DIR, "main.ts")],
      target: "node",
      format: "esm",
    });
    const output = built.outputs[0];
    if (!built.success || output === undefined) throw new Error("node bundle failed");
    const file = join(workDir, "pay-node.mjs");
    writeFileSync(file, await output.text());
    const [input, address] = await inputFor();
    expectPaid(await run(["node", file, JSON.stringify(input)]), address);
  }, 60_000);

  test("Deno: the TypeScript sources", async () => {
    const [input, address] = await inputFor();
    const deno = join(REPO_ROOT, "node_modules/.bin/deno");
    const command = [deno, "run", "--allow-all", "--no-prompt", "--no-lock", "--node-modules-dir=manual"];
    expectPaid(await run([...command, join(RUNTIME_DIR, "main.ts"), JSON.stringify(input)]), address);
  }, 90_000);

  test.skipIf(!chromiumAvailable())(
    "Chromium: a browser bundle in a page",
    async () => {
      const built = await Bun.build({
        entrypoints: [join(RUNTIME_DIR, "browser-entry.ts")],
        target: "browser",
        format: "esm",
        // As the widget's build: minified, so @solana-program's process.env["NODE_ENV"] is replaced too.
        minify: true,
        define: { "process.env.NODE_ENV": '"production"' },
      });
      const bundle = await built.outputs[0]?.text();
      if (!built.success || bundle === undefined) throw new Error("browser bundle failed");
      // One origin for the page, the priced routes and the RPC, as a site would serve them.
      const site = Bun.serve({
        port: 0,
        hostname: "127.0.0.1",
        fetch: async (request) => {
          const { pathname } = new URL(request.url);
          if (pathname === "/")
            return new Response("<!doctype html><title>x402</title>", {
              headers: { "Content-Type": "text/html" },
            });
          if (pathname === "/client.js")
            return new Response(bundle, { headers: { "Content-Type": "text/javascript" } });
          const target = pathname === "/rpc" ? env.chain.url : `${env.server.url}${pathname}`;
          const init =
            request.method === "POST"
              ? { method: "POST", headers: request.headers, body: await request.text() }
              : { headers: request.headers };
          const answer = await fetch(target, init);
          return new Response(answer.body, answer);
        },
      });
      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
      });
      try {
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(error.message));
        page.on("console", (message) => problems.push(message.text()));
        const origin = `http://127.0.0.1:${site.port}`;
        await page.goto(origin);
        await page.addScriptTag({ url: "/client.js", type: "module" });
        await page
          .waitForFunction(() => "payAndFetch" in globalThis, undefined, { timeout: 5000 })
          .catch(() => {
            throw new Error(problems.join("\n"));
          });
        const { signer, secretKey } = await payer();
        const input: PayInput = {
          url: `${origin}/premium-data`,
          rpcUrl: `${origin}/rpc`,
          secretKey: [...secretKey],
        };
        const result = await page.evaluate(
          (given) =>
            (globalThis as unknown as { payAndFetch: (i: PayInput) => Promise<unknown> }).payAndFetch(given),
          input,
        );
        expectPaid(result as { status: number; receipt: string | null; body: string }, signer.address);
      } finally {
        await browser.close();
        await site.stop(true);
      }
    },
    60_000,
  );
});
