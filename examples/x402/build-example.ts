/**
 * The example server around one store and one chain: the store's runtime, the paywall and
 * the routes. Used by the entry point and by the tests (which start several on one Redis).
 */

import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { WebCryptoRandom } from "../../adapters/secure-random/index.ts";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { LateTransferPolicy } from "../../core/payments/late-transfer.ts";
import type { X402Network } from "../../core/payments/network.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { StoreServices } from "../../core/ports/store-services.ts";
import type { Logger } from "../../src/observability/log.ts";
import { createPaywall, type PaywallDeps, specDialect } from "../../src/payments/server/payment-server.ts";
import { exactDialect } from "../../src/payments/v2/exact-dialect.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { defaultConfig, quotaLimits } from "../../src/runtime/app-layer.ts";
import { createExampleApp } from "./example-app.ts";

export interface ExampleChain {
  readonly network: X402Network;
  readonly paymentAddress: string;
  readonly tokenMint: string;
  readonly rpcUrl: string | undefined;
}

export interface ExampleOptions {
  readonly chain: ExampleChain;
  readonly autoVerify: boolean;
  readonly expiresIn?: number | undefined;
  /** What the priced routes do with a late transfer (default "serve"). */
  readonly lateTransfers?: LateTransferPolicy | undefined;
  /** The budget of chain lookups (default: the documented ceilings). */
  readonly chainLookups?: PaywallDeps["chainLookups"];
  /** Redis URL; absent: the memory store. */
  readonly redisUrl?: string | undefined;
  readonly logger: Logger;
  readonly chainFor?: PaywallDeps["chainFor"];
  /** The x402 v2 facilitator (fee payer and network); absent: only the spec's dialect. */
  readonly facilitator?: ExactFacilitator | undefined;
}

export const buildExample = (options: ExampleOptions) => {
  const limits = quotaLimits(defaultConfig());
  // Either store, seen as the ports the paywall uses (its seal key and chain lookup budget too), and the ids' random source.
  const store: Layer.Layer<StoreServices, StoreUnavailable> =
    options.redisUrl === undefined
      ? MemoryStore.layer(limits)
      : RedisStore.layer({ url: options.redisUrl, limits, keyPrefix: "x402-example:" });
  const runtime = ManagedRuntime.make(Layer.merge(store.pipe(Layer.orDie), WebCryptoRandom.layer));
  const { chain } = options;
  const paywall = createPaywall(
    {
      PaymentAddress: chain.paymentAddress,
      TokenMint: chain.tokenMint,
      Network: chain.network,
      ...(chain.rpcUrl === undefined ? {} : { RPCURL: chain.rpcUrl }),
      AutoVerify: options.autoVerify,
    },
    {
      runtime,
      logger: options.logger,
      dialects: [
        specDialect(options.logger),
        ...(options.facilitator === undefined
          ? []
          : [exactDialect({ ...options.facilitator, logger: options.logger })]),
      ],
      chainFor: options.chainFor ?? ((rpcUrl) => ChainSolana.fromUrl({ rpcUrl })),
      ...(options.chainLookups === undefined ? {} : { chainLookups: options.chainLookups }),
    },
  );
  const app = createExampleApp(paywall, {
    network: chain.network,
    paymentAddress: chain.paymentAddress,
    tokenMint: chain.tokenMint,
    expiresIn: options.expiresIn,
    lateTransfers: options.lateTransfers,
  });
  return { app, runtime, dispose: () => runtime.dispose() };
};
