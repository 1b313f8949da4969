/**
 * The x402 example server on a real local chain, served over HTTP on a free loopback port, and
 * helpers to pay it by hand (the explicit client) so tests can forge every part of a payment.
 *
 *   const chain = await startTestChain();
 *   const server = await startExampleServer(chain);            // afterAll(() => server.stop())
 *   const { request, header } = await server.pay("/premium-data");
 */

import { afterAll, beforeAll } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import * as Effect from "effect/Effect";
import type { ChainLookupCeilings } from "../../core/payments/chain-lookup-budget.ts";
import type { LateTransferPolicy } from "../../core/payments/late-transfer.ts";
import type { PaymentAuthorization, PaymentRequest } from "../../core/payments/x402.ts";
import { encodeAuthorizationHeader, paymentMemo } from "../../core/payments/x402.ts";
import { AUTHORIZATION_HEADER } from "../../core/payments/x402-receipt.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";
import { buildExample } from "../../examples/x402/build-example.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { signAuthorization } from "../../src/payments/authorization-signature.ts";
import {
  buildAuthorization,
  createTransfer,
  readPaymentRequest,
  type X402Wallet,
} from "../../src/payments/client/payment-client.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { startFacilitator } from "../../src/payments/v2/facilitator.ts";
import { startTestChain, type TestChain } from "./localnet.ts";
import { type RedisServer, startRedisServer } from "./redis-server.ts";

export interface ExampleServerOptions {
  /** Redis URL: instances started with the same one share their payment requests. */
  readonly redisUrl?: string;
  readonly autoVerify?: boolean;
  /** Seconds each payment request lives. */
  readonly expiresIn?: number;
  /** Offer x402 v2 too, with the local chain's fee payer as facilitator. */
  readonly v2?: boolean;
  /** The fee payer's floor: below it x402 v2 is withdrawn (default 0: never). */
  readonly sponsorFloor?: bigint;
  /** The budget of chain lookups (default: the documented ceilings). */
  readonly chainLookups?: ChainLookupCeilings;
  /** What the priced routes do with a late transfer (default "serve"). */
  readonly lateTransfers?: LateTransferPolicy;
  /** X402_PAYMENT_ID_REQUIRED: v2 payloads must carry a payment identifier. */
  readonly paymentIdRequired?: boolean;
}

export const startExampleServer = async (chain: TestChain, options: ExampleServerOptions = {}) => {
  const { logger, lines } = memoryLogger();
  let facilitator: ExactFacilitator | undefined;
  if (options.v2 === true) {
    // The exact scheme allows only a TransferChecked: the recipient's token account must exist.
    await chain.localnet.mintTokens(chain.serviceWallet, 0n);
    facilitator = await startFacilitator({
      rpcUrl: chain.url,
      feePayer: chain.localnet.feePayer,
      logger,
      minBalanceLamports: options.sponsorFloor ?? 0n,
      paymentIdRequired: options.paymentIdRequired ?? false,
    });
  }
  const example = buildExample({
    facilitator,
    chain: {
      network: "chain-devnet",
      paymentAddress: chain.serviceWallet,
      tokenMint: chain.mint,
      rpcUrl: chain.url,
    },
    autoVerify: options.autoVerify ?? true,
    redisUrl: options.redisUrl,
    expiresIn: options.expiresIn,
    lateTransfers: options.lateTransfers,
    ...(options.chainLookups === undefined ? {} : { chainLookups: options.chainLookups }),
    logger,
  });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: example.app.fetch });
  const url = `http://127.0.0.1:${server.port}`;
  /** The demo payer as a client wallet. */
  const wallet = (signer: KeyPairSigner = chain.payer): X402Wallet => ({
    signer,
    network: "chain-devnet",
    rpcUrl: chain.url,
  });
  const get = (path: string, header?: string) =>
    fetch(`${url}${path}`, header === undefined ? {} : { headers: { [AUTHORIZATION_HEADER]: header } });
  /** A fresh payment request of `path`. */
  const requestOf = async (path: string): Promise<PaymentRequest> => {
    const response = await get(path);
    if (response.status !== 402) throw new Error(`${path} answered ${response.status}, not 402`);
    return readPaymentRequest(response);
  };
  /** Pays `path` honestly with `signer` (default the demo payer): the request, the signature and the header. */
  const pay = async (path: string, signer?: KeyPairSigner) => {
    const request = await requestOf(path);
    const signature = await createTransfer(request, wallet(signer));
    const { authorization, header } = await buildAuthorization(request, wallet(signer), signature);
    return { request, signature, authorization, header };
  };
  /** An authorization with some fields replaced, signed by `signer` (an attacker signs what they forge). */
  const forge = async (
    authorization: PaymentAuthorization,
    changes: Partial<PaymentAuthorization>,
    signer: KeyPairSigner = chain.payer,
  ) => {
    const { signature: _, ...unsigned } = { ...authorization, ...changes };
    return encodeAuthorizationHeader({ ...unsigned, signature: await signAuthorization(signer, unsigned) });
  };
  /**
   * A fresh request of `path`, paid by `transfer` (given the request's memo) and presented by the
   * demo payer: the answer to it. `request` pays an earlier request instead.
   */
  const present = async (
    path: string,
    transfer: (memo: string) => Promise<string>,
    request?: PaymentRequest,
  ): Promise<Response> => {
    const asked = request ?? (await requestOf(path));
    const signature = await transfer(paymentMemo(asked.payment_id));
    return get(path, (await buildAuthorization(asked, wallet(), signature)).header);
  };
  /** The unattributed payments its store lists now (all of the retention). */
  const unattributed = () =>
    example.runtime.runPromise(
      Effect.flatMap(UnattributedPayments, (store) => store.between(0, Number.MAX_SAFE_INTEGER, Date.now())),
    );
  return {
    url,
    lines,
    unattributed,
    runtime: example.runtime,
    present,
    wallet,
    get,
    requestOf,
    pay,
    forge,
    stop: async () => {
      await server.stop(true);
      await example.dispose();
    },
  };
};

export type ExampleServer = Awaited<ReturnType<typeof startExampleServer>>;

/** A local chain and an example server for a test file (or describe block), stopped after it. */
export const useExampleServer = (options: ExampleServerOptions = {}) => {
  const context = {} as { chain: TestChain; server: ExampleServer };
  beforeAll(async () => {
    context.chain = await startTestChain();
    context.server = await startExampleServer(context.chain, options);
  });
  afterAll(async () => {
    await context.server?.stop();
    await context.chain?.stop();
  });
  return context;
};

/** A local chain, a real redis-server and two example servers sharing it, for a describe block. */
export const useTwoExampleServers = (options: Omit<ExampleServerOptions, "redisUrl"> = {}) => {
  const context = {} as { chain: TestChain; redis: RedisServer; first: ExampleServer; second: ExampleServer };
  beforeAll(async () => {
    context.chain = await startTestChain();
    context.redis = await startRedisServer();
    context.first = await startExampleServer(context.chain, { ...options, redisUrl: context.redis.url });
    context.second = await startExampleServer(context.chain, { ...options, redisUrl: context.redis.url });
  });
  afterAll(async () => {
    await context.first?.stop();
    await context.second?.stop();
    await context.redis?.stop();
    await context.chain?.stop();
  });
  return context;
};
