/**
 * Configuration of the example server from the environment. With no X402_PAYMENT_ADDRESS it
 * runs on a local chain of its own (no real money); otherwise PaymentAddress, TokenMint (and
 * X402_RPC_URL, or the network's public endpoint) name a real one.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import type { Env } from "../../core/config/config.ts";
import { envInteger, Flag, field, problemsOf, Url } from "../../core/config/config-fields.ts";
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

const Settings = Schema.Struct({
  PORT: Schema.optionalKey(envInteger(0, 65535)),
  X402_NETWORK: Schema.optionalKey(
    field("one of chain-devnet, chain-testnet, chain-mainnet", (input) =>
      Result.getOrUndefined(Schema.decodeUnknownResult(Network)(input)),
    ),
  ),
  X402_PAYMENT_ADDRESS: Schema.optionalKey(Schema.String),
  X402_TOKEN_MINT: Schema.optionalKey(Schema.String),
  X402_RPC_URL: Schema.optionalKey(Url()),
  X402_AUTO_VERIFY: Schema.optionalKey(Flag),
  X402_EXPIRES_IN: Schema.optionalKey(envInteger(1, 86_400)),
  REDIS_URL: Schema.optionalKey(Url(true)),
});

/** The config, or the list of problems (the service's rules: core/config/config-fields.ts). */
export const parseExampleConfig = (env: Env): Result.Result<ExampleConfig, ReadonlyArray<string>> => {
  const raw = Object.fromEntries(
    Object.keys(Settings.fields).flatMap((name) => {
      const value = env[name]?.trim();
      return value === undefined || value === "" ? [] : [[name, value]];
    }),
  );
  const decoded = Schema.decodeUnknownResult(Settings)(raw, { errors: "all" });
  if (Result.isFailure(decoded))
    return Result.fail(problemsOf(decoded.failure.issue, ([name]) => String(name)));
  const s = decoded.success;
  if ((s.X402_PAYMENT_ADDRESS === undefined) !== (s.X402_TOKEN_MINT === undefined))
    return Result.fail([
      "X402_PAYMENT_ADDRESS and X402_TOKEN_MINT: set both, or neither for the local chain",
    ]);
  return Result.succeed({
    port: s.PORT ?? DEFAULT_PORT,
    chain:
      s.X402_PAYMENT_ADDRESS === undefined || s.X402_TOKEN_MINT === undefined
        ? undefined
        : {
            network: s.X402_NETWORK ?? "chain-devnet",
            paymentAddress: s.X402_PAYMENT_ADDRESS,
            tokenMint: s.X402_TOKEN_MINT,
            rpcUrl: s.X402_RPC_URL,
          },
    autoVerify: s.X402_AUTO_VERIFY ?? true,
    expiresIn: s.X402_EXPIRES_IN,
    redisUrl: s.REDIS_URL,
  });
};
