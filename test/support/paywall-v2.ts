/**
 * A paywalled route (GET /premium, 0.1 USDC, x402 v2 only) on the local chain, for the sponsor's
 * tests: its handler runs `whileHandling`'s work (the window between our simulation and our
 * send) before it answers, and helpers pay it honestly and read the store.
 */
import { expect } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { Hono } from "hono";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { WebCryptoRandom } from "../../adapters/secure-random/index.ts";
import type { MemoryStore } from "../../adapters/store-memory/index.ts";
import type { RedisStore } from "../../adapters/store-redis/index.ts";
import { SponsorLosses } from "../../core/ports/sponsor-losses-store.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { createPaywall } from "../../src/payments/server/payment-server.ts";
import { exactDialect } from "../../src/payments/v2/exact-dialect.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import type { TestChain } from "./localnet.ts";
import { exactHeader, memoInstruction, paymentRequiredOf, transferFor } from "./x402-v2.ts";

export type PaywallStore = ReturnType<typeof MemoryStore.layer> | ReturnType<typeof RedisStore.layer>;

/**
 * An instance: GET /premium behind the paywall (x402 v2 only), whose handler runs `during` (the
 * window between our simulation and our send) before it answers.
 */
export const paywallInstance = (
  chain: TestChain,
  facilitator: ExactFacilitator,
  store: PaywallStore,
  handlerDeadlineMs?: number,
) => {
  const runtime = ManagedRuntime.make(Layer.merge(store.pipe(Layer.orDie), WebCryptoRandom.layer));
  let during: () => Promise<unknown> = async () => undefined;
  const paywall = createPaywall(
    {
      PaymentAddress: chain.serviceWallet,
      TokenMint: chain.mint,
      Network: "chain-devnet",
      RPCURL: chain.url,
      AutoVerify: true,
    },
    {
      runtime,
      logger: memoryLogger().logger,
      dialects: [
        exactDialect({
          ...facilitator,
          logger: memoryLogger().logger,
          ...(handlerDeadlineMs === undefined ? {} : { handlerDeadlineMs }),
        }),
      ],
      chainFor: (rpcUrl) => ChainSolana.fromUrl({ rpcUrl }),
    },
  );
  const app = new Hono().get("/premium", paywall({ Amount: "0.1", Description: "Premium" }), async (c) => {
    await during();
    return c.json({ premium: true });
  });
  const get = (header?: string) =>
    app.request("/premium", header === undefined ? {} : { headers: { "PAYMENT-SIGNATURE": header } });
  return {
    runtime,
    get,
    whileHandling: (work: () => Promise<unknown>) => {
      during = work;
    },
    /** An honest payload for a fresh payment request, by `payer`. */
    honest: async (payer: KeyPairSigner) => {
      const offer = await get();
      expect(offer.status).toBe(402);
      const [requirements] = paymentRequiredOf(offer).accepts;
      if (requirements === undefined) throw new Error("no accepts entry");
      const memo = memoInstruction((requirements.extra as { memo: string }).memo);
      return exactHeader(requirements, [await transferFor({ requirements, payer }), memo], {
        rpcUrl: chain.url,
      });
    },
    offersV2: async () => (await get()).headers.has("PAYMENT-REQUIRED"),
    standing: (payer: KeyPairSigner) =>
      runtime.runPromise(
        Effect.flatMap(SponsorLosses, (losses) => losses.standing(payer.address, Date.now())),
      ),
  };
};
export type PaywallInstance = ReturnType<typeof paywallInstance>;
