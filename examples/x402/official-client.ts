/**
 * `npm run x402:official -- <url> [message]`: the official x402 client (`@x402/fetch` with
 * `@x402/svm`, devDependencies) paying this service on the local demo chain with the demo
 * payer of the state file. A URL ending in /api/chat is asked `message` (POST) until the free
 * questions are used up and the 402 is paid; any other URL is fetched with GET.
 */
import { decodePaymentResponseHeader } from "@x402/core/http";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { DEFAULT_STATE_FILE, readStateFile } from "../../dev/localnet/state-file.ts";

const [url, message = "How do I write a file?"] = process.argv.slice(2);
if (url === undefined) {
  console.error("usage: npm run x402:official -- <url> [message]");
  process.exit(2);
}
const state = await readStateFile(process.env.LOCALNET_STATE_FILE ?? DEFAULT_STATE_FILE);
if (state === undefined) {
  console.error(`no local chain state at ${DEFAULT_STATE_FILE}: start the service (npm start) first`);
  process.exit(1);
}
const client = new x402Client();
client.register("solana:*", new ExactSvmScheme(state.payer, { rpcUrl: state.rpcUrl }));
// The demo mint is not one of the client's default assets: allow it, at most 1 USDC a payment.
client.setSpendControls({
  allowedAssets: [{ network: "solana:*", asset: state.mint, maxAmountPerPayment: "1000000" }],
});
const pay = wrapFetchWithPayment(fetch, client);
const chat = new URL(url).pathname.endsWith("/api/chat");
const request = () =>
  pay(
    url,
    chat
      ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message }) }
      : {},
  );
let response = await request();
// The free questions first: the client pays only when the chat answers 402.
for (
  let asked = 1;
  chat && response.ok && response.headers.get("PAYMENT-RESPONSE") === null && asked < 20;
  asked++
)
  response = await request();
const receipt = response.headers.get("PAYMENT-RESPONSE");
console.log(`${response.status} ${response.statusText}`);
if (receipt !== null) console.log("PAYMENT-RESPONSE", decodePaymentResponseHeader(receipt));
console.log(await response.text());
