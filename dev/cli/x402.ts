/**
 * `npm run x402 -- [--max 0.50] URL`: requests URL and, when it answers 402, pays with the
 * automatic client and repeats the request; prints the response body on stdout and the payment
 * and receipt on stderr. By default it pays with the demo payer of the local chain whose mint
 * and wallet the 402 names (found in the local chains' state files), so it works against
 * `npm start` and `npm run example:x402` with nothing to configure.
 * Exit codes: 0 a 2xx answer, 1 any other answer or failure, 2 bad usage, 3 the price is above --max.
 */
import * as Result from "effect/Result";
import { parseDecimalUnits } from "../../core/payments/money.ts";
import { X402_DEFAULT_RPC_URL } from "../../core/payments/network.ts";
import { Network, type PaymentRequest } from "../../core/payments/x402.ts";
import {
  AUTHORIZATION_HEADER,
  decodeReceiptHeader,
  RECEIPT_HEADER,
} from "../../core/payments/x402-receipt.ts";
import { EXAMPLE_STATE_FILE } from "../../examples/x402/example-config.ts";
import { commandLine } from "../../src/cli/command-line.ts";
import {
  isLocalUrl,
  PaymentRequiredError,
  wrapFetchWithPayment,
  type X402Wallet,
} from "../../src/payments/client/payment-client.ts";
import { loadKeypairFile } from "../localnet/keys.ts";
import { DEFAULT_STATE_FILE, readStateFile, serviceStateFiles } from "../localnet/state-file.ts";
import { payExact } from "./x402-exact.ts";

const USAGE = `usage: npm run x402 -- [options] URL
  --max USDC             most to pay for this request (default 10.0); above it, exit 3 without paying
  -X, --method METHOD    HTTP method (default GET, or POST with --data)
  -d, --data TEXT        request body (Content-Type application/json when it is JSON)
  -H, --header "N: v"    extra request header (repeatable)
  --keypair FILE         payer keypair (Solana CLI JSON); default: a local chain's demo payer
  --network NAME         network the keypair pays on (default chain-devnet): chain-devnet,
                         chain-testnet, chain-mainnet; a request on another network is refused
  --rpc URL              JSON-RPC endpoint for --keypair (default: the network's public one)
  --state-file PATH      local chain state file to pay from (default: those of npm start, .data/localnet-<PORT>.json, then ${DEFAULT_STATE_FILE}, then ${EXAMPLE_STATE_FILE})
  --allow-local          pay local or private endpoints (implied when URL itself is local)
  --no-retry             do not resend the paid request when the server says to retry
  --v2                   pay x402 v2 (PAYMENT-SIGNATURE) when the 402 offers it, the payment named with
                         a payment identifier; after a network error the same payment is sent again
  --authorization-only   pay, then print the X-Payment-Authorization value instead of sending it
                         (for curl: curl -H "X-Payment-Authorization: $(npm run -s x402 -- --authorization-only URL)" URL)`;

const { values, positionals, fail } = commandLine("x402", USAGE, {
  max: { type: "string", default: "10.0" },
  method: { type: "string", short: "X" },
  data: { type: "string", short: "d" },
  header: { type: "string", short: "H", multiple: true },
  keypair: { type: "string" },
  network: { type: "string", default: "chain-devnet" },
  rpc: { type: "string" },
  "state-file": { type: "string" },
  "allow-local": { type: "boolean", default: false },
  "no-retry": { type: "boolean", default: false },
  v2: { type: "boolean", default: false },
  "authorization-only": { type: "boolean", default: false },
});

const [target, ...extra] = positionals;
if (target === undefined || extra.length > 0 || !URL.canParse(target)) fail("give exactly one URL", 2);
const url = target as string;
const network = values.network;
if (!Network.literals.some((name) => name === network)) fail(`--network ${network}: not a network name`, 2);

/** The payer: --keypair, or the demo payer of the local chain that holds the requested mint and wallet. */
const walletFor = async (request: PaymentRequest): Promise<X402Wallet> => {
  if (values.keypair !== undefined) {
    const signer = await loadKeypairFile(values.keypair, () =>
      fail(`cannot read keypair file ${values.keypair}`, 2),
    );
    const chosen = network as X402Wallet["network"];
    return { signer, network: chosen, rpcUrl: values.rpc ?? X402_DEFAULT_RPC_URL[chosen] };
  }
  const files =
    values["state-file"] === undefined
      ? [...serviceStateFiles(), DEFAULT_STATE_FILE, EXAMPLE_STATE_FILE]
      : [values["state-file"]];
  for (const file of files) {
    const state = await readStateFile(file);
    if (state?.mint === request.asset_address && state.serviceWallet === request.payment_address)
      return { signer: state.payer, network: request.network, rpcUrl: state.rpcUrl };
  }
  return fail(
    `no local chain in ${files.join(", ")} takes payments to ${request.payment_address} in ${request.asset_address}; pay with --keypair FILE`,
    2,
  );
};

const headers = new Headers();
for (const line of values.header ?? []) {
  const colon = line.indexOf(":");
  if (colon <= 0) fail(`--header "${line}": write it as "Name: value"`, 2);
  headers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
}
if (values.data !== undefined && !headers.has("content-type") && URL.canParse(url)) {
  const isJson = (() => {
    try {
      JSON.parse(values.data);
      return true;
    } catch {
      return false;
    }
  })();
  headers.set("Content-Type", isJson ? "application/json" : "text/plain");
}

/** With --authorization-only the paid request is not sent: its header is kept for printing. */
let authorization: string | undefined;
const sendOrKeep = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const header = request.headers.get(AUTHORIZATION_HEADER);
  if (values["authorization-only"] && header !== null) {
    authorization = header;
    return new Response(null, { status: 204 });
  }
  return fetch(request);
};

const payingFetch = wrapFetchWithPayment(walletFor, {
  fetch: sendOrKeep as typeof fetch,
  MaxPaymentAmount: values.max,
  AutoRetry: !values["no-retry"],
  // Typing a local URL is consent to pay it (the demo chains are local).
  AllowLocal: values["allow-local"] || isLocalUrl(url),
  onPaid: ({ request, signature }) =>
    console.error(
      `paid ${request.max_amount_required} USDC for ${request.resource}: transaction ${signature}`,
    ),
});

/** --v2: the offer's x402 v2 part, paid by the official client (x402-exact.ts); the spec's dialect otherwise. */
const runExact = async (method: string) => {
  const send = (with_: Headers) => fetch(url, { method, headers: with_, body: values.data ?? null });
  const offered = await send(headers);
  if (offered.status !== 402) return offered;
  const maxUnits = Result.getOrElse(parseDecimalUnits(values.max), () =>
    fail(`--max ${values.max}: not a USDC amount`, 2),
  );
  const outcome = await payExact({
    offered,
    send,
    headers,
    maxUnits,
    log: (line) => console.error(line),
    payerFor: async (required) => {
      const [offer] = required.accepts;
      const wallet = await walletFor({
        asset_address: offer?.asset ?? "",
        payment_address: offer?.payTo ?? "",
        network: network as X402Wallet["network"],
      } as PaymentRequest);
      return { signer: wallet.signer, rpcUrl: wallet.rpcUrl };
    },
  });
  if (outcome.kind === "not-offered") fail(`${url} offers no x402 v2 payment: run without --v2`, 1);
  if (outcome.kind === "above-max") {
    console.error(`x402: not paid: the price ${outcome.amount} base units is above --max ${values.max}`);
    process.exit(3);
  }
  if (outcome.kind !== "paid") return offered;
  console.error(`HTTP ${outcome.response.status} ${outcome.response.statusText}`);
  console.log(outcome.body);
  process.exit(outcome.response.ok ? 0 : 1);
};

const run = async () => {
  const method = values.method ?? (values.data === undefined ? "GET" : "POST");
  if (values.v2) {
    const response = await runExact(method);
    console.error(`HTTP ${response.status} ${response.statusText}`);
    console.log(await response.text());
    process.exit(response.ok ? 0 : 1);
  }
  const response = await payingFetch(url, { method, headers, body: values.data ?? null });
  if (values["authorization-only"]) {
    if (authorization === undefined) fail(`${url} answered ${response.status}: nothing to pay`, 1);
    console.log(authorization);
    process.exit(0);
  }
  console.error(`HTTP ${response.status} ${response.statusText}`);
  const receipt = decodeReceiptHeader(response.headers.get(RECEIPT_HEADER) ?? "");
  if (receipt !== undefined) console.error(`receipt: ${JSON.stringify(receipt)}`);
  console.log(await response.text());
  process.exit(response.ok ? 0 : 1);
};

run().catch((cause: unknown) => {
  if (cause instanceof PaymentRequiredError) {
    console.error(`x402: not paid: ${cause.message}`);
    process.exit(3);
  }
  const code =
    typeof cause === "object" && cause !== null && "code" in cause ? ` [${String(cause.code)}]` : "";
  fail(`${cause instanceof Error ? cause.message : String(cause)}${code}`, 1);
});
