/**
 * Configuration of the example server from the environment. With no X402_PAYMENT_ADDRESS it
 * runs on a local chain of its own (no real money); otherwise PaymentAddress, TokenMint (and
 * X402_RPC_URL, or the network's public endpoint) name a real one.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { type Env, reader } from "../../core/config-reader.ts";
import { Network } from "../../core/payments/x402.ts";

export const DEFAULT_PORT = 4020;
export const EXAMPLE_STATE_FILE = ".data/x402-localnet.json";

export interface ExampleConfig {
  readonly port: number;
  /** undefined: a local chain is started. */
  readonly chain:
    | {
        readonly network: typeof Network.Type;
        readonly paymentAddress: string;
        readonly tokenMint: string;
        readonly rpcUrl: string | undefined;
      }
    | undefined;
  readonly autoVerify: boolean;
  /** Seconds a payment request lives (default 300). */
  readonly expiresIn: number | undefined;
  readonly redisUrl: string | undefined;
}

/** The config, or the list of problems. */
export const parseExampleConfig = (env: Env): Result.Result<ExampleConfig, ReadonlyArray<string>> => {
  const read = reader(env);
  const networkText = read.text("X402_NETWORK") ?? "chain-devnet";
  const network = Schema.decodeUnknownResult(Network)(networkText);
  if (Result.isFailure(network))
    read.problems.push(
      `X402_NETWORK: one of chain-devnet, chain-testnet, chain-mainnet (got "${networkText}")`,
    );
  const paymentAddress = read.text("X402_PAYMENT_ADDRESS");
  const tokenMint = read.text("X402_TOKEN_MINT");
  if ((paymentAddress === undefined) !== (tokenMint === undefined))
    read.problems.push("X402_PAYMENT_ADDRESS and X402_TOKEN_MINT: set both, or neither for the local chain");
  const config: ExampleConfig = {
    port: read.integer("PORT", DEFAULT_PORT, 0, 65535),
    chain:
      paymentAddress === undefined || tokenMint === undefined
        ? undefined
        : {
            network: Result.getOrElse(network, () => "chain-devnet" as const),
            paymentAddress,
            tokenMint,
            rpcUrl: read.url("X402_RPC_URL"),
          },
    autoVerify: read.text("X402_AUTO_VERIFY") === undefined ? true : read.flag("X402_AUTO_VERIFY"),
    expiresIn:
      read.text("X402_EXPIRES_IN") === undefined
        ? undefined
        : read.integer("X402_EXPIRES_IN", 300, 1, 86_400),
    redisUrl: read.url("REDIS_URL", true),
  };
  return read.problems.length === 0 ? Result.succeed(config) : Result.fail(read.problems);
};
