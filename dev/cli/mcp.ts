/**
 * `npm run mcp -- [--url URL] [--keypair FILE --rpc URL] ask "question" | search "query" | tools`:
 * the service's MCP endpoint as a coding agent sees it, with the official MCP client. `ask`
 * answers from the docs; when the free questions are used up it first signs in with its wallet
 * (the offer's `sign-in-with-x` challenge, signed with `@x402/extensions`' SIWX helper and sent in
 * `_meta["sign-in-with-x"]`), so a wallet with credits bought earlier (through the chat or here)
 * is answered from them; only when it has none does it pay the PaymentRequired result
 * with the official x402 client's Solana scheme (by default the demo payer of the local chain
 * whose mint and wallet the offer names, so it works against `npm start`) and asks again, then
 * prints the answer on stdout and the settlement on stderr. Each payment is named with an x402
 * payment identifier, so when the paid call meets a network error the very same payload is sent
 * again (up to three times) and the service answers it once, charged once.
 * Exit codes: 0 answered, 1 refused or failed, 2 bad usage.
 */
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { KeyPairSigner } from "@solana/kit";
import type { PaymentRequired } from "@x402/core/types";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { createSIWxPayload, type SIWxExtension, type SIWxSigner } from "@x402/extensions/sign-in-with-x";
import { x402Client } from "@x402/fetch";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { loadKeypairFile } from "../localnet/keys.ts";
import { DEFAULT_STATE_FILE, readStateFile, serviceStateFiles } from "../localnet/state-file.ts";

const USAGE = `usage: npm run mcp -- [options] ask "question" | search "query" | tools
  --url URL          the MCP endpoint (default http://localhost:$PORT/mcp, PORT 3000)
  --keypair FILE     payer keypair (Solana CLI JSON); default: a local chain's demo payer
  --rpc URL          JSON-RPC endpoint for --keypair`;

const fail = (message: string, code = 1): never => {
  console.error(message);
  process.exit(code);
};

const { values, positionals } = parseArgs({
  options: {
    url: { type: "string" },
    keypair: { type: "string" },
    rpc: { type: "string" },
    help: { type: "boolean" },
  },
  allowPositionals: true,
  strict: true,
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [command, text] = positionals;
if (command !== "tools" && (text === undefined || (command !== "ask" && command !== "search")))
  fail(USAGE, 2);

const url = values.url ?? `http://localhost:${process.env.PORT ?? 3000}/mcp`;
/** The most one payment may be, in base units: 1 USDC. */
const MAX_UNITS = "1000000";
/** Sends of one paid call: the first and two resends of the same payload after network errors. */
const PAID_ATTEMPTS = 3;

/** Who pays an offer: --keypair, or the demo payer of the local chain that has the offer's mint and wallet. */
const payerFor = async (required: PaymentRequired): Promise<{ signer: KeyPairSigner; rpcUrl: string }> => {
  const [offer] = required.accepts;
  if (values.keypair !== undefined) {
    if (values.rpc === undefined) fail("--keypair needs --rpc", 2);
    return {
      signer: await loadKeypairFile(values.keypair, () => fail(`cannot read ${values.keypair}`, 2)),
      rpcUrl: values.rpc as string,
    };
  }
  for (const file of [...serviceStateFiles(), DEFAULT_STATE_FILE]) {
    const state = await readStateFile(file).catch(() => undefined);
    if (state !== undefined && state.mint === offer?.asset && state.serviceWallet === offer?.payTo)
      return { signer: state.payer, rpcUrl: state.rpcUrl };
  }
  return fail("no local chain pays this offer: give --keypair and --rpc");
};

const client = new Client({ name: "docs-chat-cli", version: "0.1.0" });
await client
  .connect(new StreamableHTTPClientTransport(new URL(url)))
  .catch((error: unknown) =>
    fail(`cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`),
  );
try {
  if (command === "tools") {
    const { tools } = await client.listTools();
    for (const tool of tools) console.log(`${tool.name}: ${tool.description ?? ""}`);
  } else {
    // Either tool may be priced (MCP_TOOL_PRICES): an offer is paid the same way for both.
    const [name, args] =
      command === "search" ? ["search_docs", { query: text }] : ["ask_docs", { question: text }];
    const call = (meta?: Record<string, unknown>) =>
      client.callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) });
    /** The paid call, sent again unchanged after a network error: its payment identifier makes it one payment. */
    const callPaid = async (meta: Record<string, unknown>) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await call(meta);
        } catch (error) {
          if (attempt >= PAID_ATTEMPTS) throw error;
          console.error(
            `network error (${error instanceof Error ? error.message : String(error)}): sending the same payment again`,
          );
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        }
      }
    };
    const offerOf = (answered: typeof result) =>
      answered.isError ? (answered.structuredContent as PaymentRequired | undefined) : undefined;
    let result = await call();
    let required = offerOf(result);
    const challenge = required?.extensions?.["sign-in-with-x"] as SIWxExtension | undefined;
    const chain = challenge?.supportedChains.find((chosen) => chosen.type === "ed25519");
    if (required?.x402Version === 2 && challenge !== undefined && chain !== undefined) {
      // Credits bought earlier are the wallet's: a single-use sign-in spends them, and only a
      // wallet with none gets the offer again (a fresh one, paid below).
      const payer = await payerFor(required);
      const proof = await createSIWxPayload(
        { ...challenge.info, chainId: chain.chainId, type: chain.type },
        payer.signer as unknown as SIWxSigner,
        challenge.info.uri,
      );
      console.error(`signing in as ${payer.signer.address}`);
      result = await call({ "sign-in-with-x": proof });
      required = offerOf(result);
      if (required === undefined && !result.isError)
        console.error("answered from the wallet's credits: nothing paid");
    }
    if (required?.x402Version === 2) {
      const payer = await payerFor(required);
      const x402 = new x402Client().register(
        "solana:*",
        new ExactSvmScheme(payer.signer, { rpcUrl: payer.rpcUrl }),
      );
      // The official client pays only the assets it is told to, up to a maximum: this offer's, up to 1 USDC.
      x402.setSpendControls({
        allowedAssets: [
          { network: "solana:*", asset: required.accepts[0]?.asset ?? "", maxAmountPerPayment: MAX_UNITS },
        ],
      });
      // Named where the offer declares payment-identifier, so a resend after a network error is one payment.
      const id = generatePaymentId();
      x402.onBeforePaymentCreation(async ({ paymentRequired }) => {
        paymentRequired.extensions = appendPaymentIdentifierToExtensions(
          paymentRequired.extensions ?? {},
          id,
        );
      });
      console.error(
        `paying ${required.accepts[0]?.amount} base units of ${required.accepts[0]?.asset} (${required.error}), payment id ${id}`,
      );
      result = await callPaid({ "x402/payment": await x402.createPaymentPayload(required) });
      const settlement = (result._meta as Record<string, unknown> | undefined)?.["x402/payment-response"];
      if (settlement !== undefined) console.error(`settlement: ${JSON.stringify(settlement)}`);
    }
    const answer = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    if (result.isError) fail(answer);
    console.log(answer);
  }
} finally {
  await client.close();
}
