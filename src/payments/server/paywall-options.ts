/**
 * The paywall's configuration, in the spec's names: global (PaymentAddress, TokenMint, Network,
 * RPCURL, AutoVerify) and per route (Amount, PaymentAddress, TokenMint, Network, Description,
 * ExpiresIn, AutoVerify, and LateTransfers: this implementation's opt-out of serving late
 * transfers, core/payments/late-transfer.ts). Decoded with Schemas at setup, so a bad price or address stops the
 * server before it takes a request; verification off is refused on mainnet.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { isBase58Address } from "../../../core/base58.ts";
import {
  DEFAULT_LATE_TRANSFER_POLICY,
  LATE_TRANSFER_POLICIES,
  type LateTransferPolicy,
} from "../../../core/payments/late-transfer.ts";
import { type BaseUnits, parseDecimalUnits } from "../../../core/payments/money.ts";
import { X402_DEFAULT_RPC_URL, type X402Network } from "../../../core/payments/network.ts";
import { Network } from "../../../core/payments/x402.ts";

const Address = Schema.String.pipe(
  Schema.check(Schema.makeFilter((text: string) => isBase58Address(text) || "a base58 address of 32 bytes")),
);
const Url = Schema.String.pipe(
  Schema.check(Schema.makeFilter((text: string) => URL.canParse(text) || "an http(s) URL")),
);

export const PaywallConfig = Schema.Struct({
  PaymentAddress: Address,
  TokenMint: Address,
  Network: Schema.optional(Network),
  RPCURL: Schema.optional(Url),
  AutoVerify: Schema.optional(Schema.Boolean),
});
export type PaywallConfig = typeof PaywallConfig.Type;

export const RouteOptions = Schema.Struct({
  /** Decimal USDC ("0.10"): more than zero, at most 6 decimals. */
  Amount: Schema.String,
  PaymentAddress: Schema.optional(Address),
  TokenMint: Schema.optional(Address),
  Network: Schema.optional(Network),
  Description: Schema.optional(Schema.String),
  /** Seconds (default 300). */
  ExpiresIn: Schema.optional(
    Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 86_400 }))),
  ),
  AutoVerify: Schema.optional(Schema.Boolean),
  /**
   * A verified transfer that lands (or is presented) after the request's graces: "serve" it
   * (default: it paid the price in full), or "list" it for a refund by hand and refuse it.
   */
  LateTransfers: Schema.optional(Schema.Literals(LATE_TRANSFER_POLICIES)),
});
export type RouteOptions = typeof RouteOptions.Type;

export const DEFAULT_NETWORK: X402Network = "chain-devnet";
export const DEFAULT_EXPIRES_IN_SECONDS = 300;

/** A route's terms, resolved against the global config. */
export interface RouteTerms {
  readonly units: BaseUnits;
  readonly payTo: string;
  readonly mint: string;
  readonly network: X402Network;
  readonly rpcUrl: string;
  readonly description: string;
  readonly expiresInSeconds: number;
  readonly autoVerify: boolean;
  readonly lateTransfers: LateTransferPolicy;
}

/** A configuration the paywall refuses to run with. */
export class PaywallConfigError extends Schema.TaggedError<PaywallConfigError>()("PaywallConfigError", {
  problem: Schema.String,
}) {
  override get message(): string {
    return `x402 paywall: ${this.problem}`;
  }
}

const decode = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, what: string) => {
  const run = Schema.decodeUnknownResult(schema);
  return (input: unknown): S["Type"] =>
    Result.getOrElse(run(input), (issue) => {
      throw new PaywallConfigError({ problem: `${what}: ${issue.message}` });
    });
};

export const decodeConfig = decode(PaywallConfig, "config");
const decodeRoute = decode(RouteOptions, "route options");

/** The terms of one route; throws PaywallConfigError on a bad price or verification off on mainnet. */
export const routeTerms = (config: PaywallConfig, input: RouteOptions): RouteTerms => {
  const options = decodeRoute(input);
  const units = Result.getOrElse(parseDecimalUnits(options.Amount), (why) => {
    throw new PaywallConfigError({ problem: `Amount "${options.Amount}": ${why}` });
  });
  if (units <= 0n)
    throw new PaywallConfigError({ problem: `Amount "${options.Amount}" must be more than zero` });
  const globalNetwork = config.Network ?? DEFAULT_NETWORK;
  const network = options.Network ?? globalNetwork;
  const autoVerify = options.AutoVerify ?? config.AutoVerify ?? false;
  if (!autoVerify && network === "chain-mainnet")
    throw new PaywallConfigError({
      problem: "AutoVerify false is refused on chain-mainnet: payments would not be checked on chain",
    });
  return {
    units,
    payTo: options.PaymentAddress ?? config.PaymentAddress,
    mint: options.TokenMint ?? config.TokenMint,
    network,
    // The global RPC address belongs to the global network; another network uses its default.
    rpcUrl:
      network === globalNetwork && config.RPCURL !== undefined
        ? config.RPCURL
        : X402_DEFAULT_RPC_URL[network],
    description: options.Description ?? "",
    expiresInSeconds: options.ExpiresIn ?? DEFAULT_EXPIRES_IN_SECONDS,
    autoVerify,
    lateTransfers: options.LateTransfers ?? DEFAULT_LATE_TRANSFER_POLICY,
  };
};
