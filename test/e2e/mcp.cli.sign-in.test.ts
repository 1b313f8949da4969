/**
 * `npm run mcp -- ask` signs in before it pays: against `npm start` (the demo chain), the demo
 * payer buys ten questions through the chat from another client (the official x402 client,
 * behind a trusted proxy), then the CLI, its free question used, signs in with that wallet on
 * MCP and is answered from its credits: the payer's USDC, the service wallet's USDC and the fee
 * payer's SOL unchanged. (That it pays when the wallet has none: mcp.cli.test.ts.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createSolanaRpc } from "@solana/kit";
import { readStateFile, serviceStateFile } from "../../dev/localnet/state-file.ts";
import { tokenBalance } from "../support/localnet.ts";
import { runCli, type ServiceProcess, startService } from "../support/service-process.ts";
import { officialFetch } from "../support/x402-v2.ts";

let service: ServiceProcess | undefined;
beforeAll(async () => {
  service = await startService({ env: { RATE_LIMIT_FREE_QUERIES: "1", TRUST_PROXY: "1" } });
}, 60_000);
afterAll(async () => {
  await service?.dispose();
});

test("a wallet with credits bought through the chat is answered over MCP by signing in, paying nothing", async () => {
  if (service === undefined) throw new Error("the service did not start");
  const state = await readStateFile(join(service.cwd, serviceStateFile(service.port)));
  if (state?.feePayer === undefined) throw new Error("npm start wrote no local chain state with a fee payer");
  const rpc = createSolanaRpc(state.rpcUrl);
  const balances = async () => ({
    payer: await tokenBalance(rpc, state.mint, state.payer.address),
    service: await tokenBalance(rpc, state.mint, state.serviceWallet),
    feePayerSol: (await rpc.getBalance(state.feePayer!.address).send()).value,
  });
  // Another client (behind the proxy) uses its free question, then buys ten with the demo payer.
  const viaProxy = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    request.headers.set("X-Forwarded-For", "203.0.113.9");
    return fetch(request);
  }) as typeof fetch;
  const question = {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ message: "How do I pay for more questions?" }),
  };
  expect((await viaProxy(`${service.url}/api/chat`, question)).status).toBe(200);
  const wallet = { signer: state.payer, rpcUrl: state.rpcUrl, mint: state.mint };
  const bought = await officialFetch(wallet, viaProxy)(`${service.url}/api/chat`, question);
  expect(bought.status).toBe(200);

  const mcp = (args: ReadonlyArray<string>) => runCli(service!, "dev/cli/mcp.ts", args);
  expect((await mcp(["ask", "How do I pay for more questions?"])).code).toBe(0);
  const before = await balances();
  const signedIn = await mcp(["ask", "How do I pay for more questions?"]);
  expect(signedIn.code).toBe(0);
  expect(signedIn.stdout).toContain("Sources:");
  expect(signedIn.stderr).toContain(`signing in as ${state.payer.address}`);
  expect(signedIn.stderr).toContain("answered from the wallet's credits: nothing paid");
  expect(signedIn.stderr).not.toContain("paying");
  expect(await balances()).toEqual(before);
}, 60_000);
