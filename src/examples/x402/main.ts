/**
 * `npm run example:x402`: the spec's example server on http://localhost:4020 (PORT), on a
 * local chain of its own unless X402_PAYMENT_ADDRESS and X402_TOKEN_MINT name a real one.
 * Pay it with `npm run x402 -- http://localhost:4020/premium-data`.
 */
import { Result } from "effect";
import { makeLogger } from "../../observability/log.ts";
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
  const { startLocalnet } = await import("../../localnet/index.ts");
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
  return { chain, stop: () => localnet.stop() };
};

const { chain, stop } =
  config.chain === undefined ? await localChain() : { chain: config.chain, stop: async () => {} };
const { autoVerify, expiresIn, redisUrl } = config;
const example = buildExample({ chain, autoVerify, expiresIn, redisUrl, logger });
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
