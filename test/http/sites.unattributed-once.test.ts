/**
 * A transfer is listed for refund once in the whole service, on the site whose owner refunds it.
 * Site B could not unseal site A's payment ids, so A's x402 transfer presented on B's
 * POST /api/payment was listed on B (to be refunded) while A served it; and a transfer without
 * a memo of ours, to a wallet several sites receive in, was listed on each site it was shown to.
 * Now a payment id any site sealed is that site's (listed nowhere else), and a transfer nobody
 * can attribute is listed on the wallet's owner: the default site for the service's wallet,
 * else the first site by id receiving in that wallet.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import type * as Layer from "effect/Layer";
import { encodeBase58 } from "../../core/base58.ts";
import { sealPayment } from "../../core/payments/sealed-request.ts";
import type { ChainLookup, ChainReader } from "../../core/ports/chain-reader.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";
import type { AppRuntime } from "../../src/hono-kit/run-effect.ts";
import { recentBlockTime, USDC_MINT, usdcPayment, WALLET } from "../support/parsed-tx.ts";
import { buildSitesApp, docsFolder, type SitesService, siteDefinition } from "../support/sites-app.ts";
import { scriptedChain } from "../support/test-layers.ts";

const folder = docsFolder({ "a.md": "# Alpha\n\nAlpha answers about alpha.\n" });
const lookups = new Map<string, ChainLookup>();
let service: SitesService;
let seed = 1;
const newSignature = () =>
  encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => (i * 11 + seed++ * 13) % 256 || 1));

beforeAll(async () => {
  service = await buildSitesApp({
    defaultDocs: folder,
    chain: {
      layer: scriptedChain(lookups) as Layer.Layer<ChainReader, unknown>,
      wallet: WALLET,
      usdcMint: USDC_MINT,
    },
    // Neither has a wallet of its own: both receive in the service's, as the default site does.
    sites: [
      { definition: siteDefinition("alpha"), folder },
      { definition: siteDefinition("beta"), folder },
    ],
  });
});
afterAll(() => service?.dispose());

const runtimeOf = (id: string): AppRuntime => {
  const site = service.sites.list().find((one) => one.definition.id === id);
  if (site === undefined) throw new Error(`${id} is not open`);
  return site.served.runtime;
};

const listed = (runtime: AppRuntime) =>
  runtime.runPromise(
    Effect.flatMap(UnattributedPayments, (list) => list.between(0, Number.MAX_SAFE_INTEGER, Date.now())),
  );

const present = async (path: string, memos: ReadonlyArray<string>) => {
  const signature = newSignature();
  lookups.set(signature, {
    kind: "found",
    transaction: usdcPayment(100_000n, { blockTime: recentBlockTime(), memos }),
  });
  await submit(path, signature, "198.51.100.93");
  return signature;
};

/** POST <path> of `signature` (0.1 USDC) from `from`. */
const submit = (path: string, signature: string, from: string) =>
  service.call(
    path,
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ signature, amount: 0.1, token: "USDC" }),
    },
    from,
  );

describe("a transfer is attributed once for the service", () => {
  test("site A's x402 transfer presented on site B is listed nowhere (it is A's to serve)", async () => {
    const mac = await runtimeOf("alpha").runPromise(Effect.map(RequestSeal, (seal) => seal.mac));
    const issued = sealPayment(
      mac,
      {
        binding: { resource: "/sites/alpha/api/chat", method: "POST" },
        units: 100_000n,
        payTo: WALLET,
        mint: USDC_MINT,
        network: "chain-devnet",
        description: "questions",
      },
      "AbCdEfGh23456789",
      Date.now() + 60_000,
    );
    // Presented on another site, or on the root (default) site, whose runtime attributes alike.
    for (const path of ["/sites/beta/api/payment", "/api/payment"]) {
      const signature = await present(path, [`x402:${issued.paymentId}`]);
      for (const runtime of [runtimeOf("alpha"), runtimeOf("beta"), service.runtime])
        expect((await listed(runtime)).map((entry) => entry.signature)).not.toContain(signature);
    }
  });

  test("a transfer with no memo of any site, to the wallet the sites share, shown on each, is listed once: on the default site", async () => {
    const signature = await newSignatureShownEverywhere();
    expect((await listed(service.runtime)).filter((entry) => entry.signature === signature)).toHaveLength(1);
    for (const id of ["alpha", "beta"])
      expect((await listed(runtimeOf(id))).map((entry) => entry.signature)).not.toContain(signature);
  });
});

const newSignatureShownEverywhere = async () => {
  const signature = newSignature();
  lookups.set(signature, {
    kind: "found",
    transaction: usdcPayment(100_000n, { blockTime: recentBlockTime(), memos: ["x402:pay_nobodys"] }),
  });
  for (const path of ["/sites/alpha/api/payment", "/sites/beta/api/payment", "/api/payment"])
    await submit(path, signature, "198.51.100.94");
  return signature;
};
