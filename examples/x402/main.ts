/**
 * `npm run example:x402`: the spec's example server on http://localhost:4020 (PORT), on a
 * local chain of its own unless X402_PAYMENT_ADDRESS and X402_TOKEN_MINT name a real one.
 * Pay it with `npm run x402 -- http://localhost:4020/premium-data`.
 */
import * as Result from "effect/Result";
import { X402_DEFAULT_RPC_URL } from "../../core/payments/network.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { startFacilitator } from "../../src/payments/v2/facilitator.ts";
import { FEE_PAYER_SECRET_VARIABLE } from "../../src/payments/v2/fee-payer.ts";
import { buildExample, type ExampleChain } from "./build-example.ts";
import { EXAMPLE_STATE_FILE, parseExampleConfig } from "./example-config.ts";

const logger = makeLogger();
const parsed = parseExampleConfig(process.env);
if (Result.isFailure(parsed)) {
  console.error(`Invalid configuration:\n${parsed.failure.map((problem) => `  - ${problem}`).join("\n")}`);
  process.exit(1);
}
const config = parsed.success;

const localChain = async () => {
  const { startLocalnet } = await import("../../dev/localnet/index.ts");
  const localnet = await startLocalnet({ stateFile: EXAMPLE_STATE_FILE });
  logger.warn("no X402_PAYMENT_ADDRESS: payments go to a local demo chain (no real money)", {
    rpcUrl: localnet.url,
    stateFile: EXAMPLE_STATE_FILE,
  });
  const chain: ExampleChain = {
    // The local chain is announced as a devnet: it is never real money.
    network: "chain-devnet",
    paymentAddress: localnet.serviceWallet,
    tokenMint: localnet.mint,
    rpcUrl: localnet.url,
  };
  // The exact scheme allows only a TransferChecked: the recipient's token account must exist.
  await localnet.mintTokens(localnet.serviceWallet, 0n);
  return { chain, feePayer: localnet.feePayer, stop: () => localnet.stop() };
};

const { chain, feePayer, stop } =
  config.chain === undefined
    ? await localChain()
    : { chain: config.chain, feePayer: process.env[FEE_PAYER_SECRET_VARIABLE], stop: async () => {} };
const { autoVerify, expiresIn, redisUrl } = config;
const facilitator = await startFacilitator({
  rpcUrl: chain.rpcUrl ?? X402_DEFAULT_RPC_URL[chain.network],
  feePayer,
  logger,
});
const example = buildExample({ chain, autoVerify, expiresIn, redisUrl, logger, facilitator });
const server = Bun.serve({ port: config.port, fetch: example.app.fetch });
logger.info("x402 example server listening", {
  url: server.url.href,
  network: chain.network,
  paymentAddress: chain.paymentAddress,
  tokenMint: chain.tokenMint,
  payWith: `npm run x402 -- ${server.url.href}premium-data`,
});

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { signal });
  await server.stop(false);
  await example.dispose();
  await stop();
  logger.flush();
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
