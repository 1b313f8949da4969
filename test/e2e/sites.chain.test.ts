/**
 * Two hosted sites on the local chain, on the memory store and on two instances
 * sharing one redis-server: alpha at 0.001 USDC a question paid to its own wallet, beta at 0.002
 * to another. Every way of paying (a posted signature, the spec's X-Payment-Authorization, x402
 * v2's PAYMENT-SIGNATURE, a paid MCP ask_docs) and signing in works on each site, paying that
 * site's wallet exactly; and every payment of one site, replayed or claimed on the other, is
 * refused with nothing credited and nothing moved. A transfer pays the site whose wallet got it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Address, KeyPairSigner } from "@solana/kit";
import type { PaymentRequired } from "@x402/core/types";
import {
  buildAuthorization,
  createTransfer,
  readPaymentRequest,
  type X402Wallet,
} from "../../src/payments/client/payment-client.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { proofFor } from "../support/sign-in-client.ts";
import {
  docsFolder,
  type SitesService,
  siteDefinition,
  sitesInstances,
  useInstances,
} from "../support/sites-app.ts";
import { officialClient, officialPaymentHeader, startChainWithFacilitator } from "../support/x402-v2.ts";

type Service = SitesService;
type SiteId = "alpha" | "beta";

let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const wallets = {} as Record<SiteId, Address>;
const servers: Array<ReturnType<typeof Bun.serve>> = [];
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
  for (const id of ["alpha", "beta"] as const) {
    wallets[id] = await chain.freshAddress();
    await chain.localnet.mintTokens(wallets[id], 0n);
  }
});
afterAll(async () => {
  for (const server of servers) await server.stop(true);
  await chain?.stop();
});

const PRICE: Record<SiteId, bigint> = { alpha: 1_000n, beta: 2_000n };
const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nStart the service with npm start.\n" }),
  alpha: docsFolder({
    "zorblax.md": "# Zorblax frobnicator\n\nThe Zorblax frobnication level goes from one to nine.\n",
  }),
  beta: docsFolder({
    "quuxly.md": "# Quuxly sharding\n\nQuuxly shards every table by tenant with the rebalance command.\n",
  }),
};
const QUESTION: Record<SiteId, string> = {
  alpha: "What is the Zorblax level?",
  beta: "How does Quuxly shard?",
};
const OTHER: Record<SiteId, SiteId> = { alpha: "beta", beta: "alpha" };

const options = (redisUrl?: string) => ({
  defaultDocs: docs.default,
  sites: [
    ...(["alpha", "beta"] as const).map((id) => ({
      definition: siteDefinition(id, {
        freeQueries: 1,
        unitsPerQuery: PRICE[id],
        wallet: wallets[id],
        mcpToolPrices: { search_docs: 0, read_page: 0, ask_docs: 1 },
      }),
      folder: docs[id],
    })),
    // A site without a wallet of its own: the service's, which the default site is paid to too.
    { definition: siteDefinition("gamma", { freeQueries: 1 }), folder: docs.alpha },
    // A site paid to alpha's wallet.
    { definition: siteDefinition("delta", { freeQueries: 1, wallet: wallets.alpha }), folder: docs.alpha },
  ],
  ...(redisUrl === undefined ? {} : { redisUrl }),
  ...(facilitator === undefined ? {} : { facilitator }),
  chain: chainReaderOf(chain),
});

const redis = redisServerAvailable() ? useRedisServer() : undefined;
const STORES = sitesInstances(redis, options);

/** What moved on the chain since `before`: the payer's USDC, each site wallet's, and the fee payer's SOL. */
const watch = async (payer: Address) => {
  const read = async () => ({
    payer: await chain.usdcBalance(payer),
    alpha: await chain.usdcBalance(wallets.alpha),
    beta: await chain.usdcBalance(wallets.beta),
    feePayerSol: (await chain.rpc.getBalance(chain.localnet.feePayer.address).send()).value,
  });
  const before = await read();
  return async () => {
    const after = await read();
    return {
      payer: after.payer - before.payer,
      alpha: after.alpha - before.alpha,
      beta: after.beta - before.beta,
      feePayerSol: after.feePayerSol - before.feePayerSol,
    };
  };
};
/** `units` paid to site `id`; `sponsored`: a settlement the fee payer signed (x402 v2), 10,001 lamports. */
const paid = (id: SiteId, units: bigint, sponsored = false) => ({
  payer: -units,
  alpha: id === "alpha" ? units : 0n,
  beta: id === "beta" ? units : 0n,
  feePayerSol: sponsored ? -10_001n : 0n,
});
const NOTHING = { payer: 0n, alpha: 0n, beta: 0n, feePayerSol: 0n };

/** The status and code of a refused payment. */
const refusal = async (response: Response) => [response.status, (await response.json()).code];
const json = async (response: Response) => (await response.json()) as Record<string, unknown>;
const x402Wallet = (signer: KeyPairSigner): X402Wallet => ({
  signer,
  network: "chain-devnet",
  rpcUrl: chain.url,
});

describe.each(STORES)("two sites on the local chain (%s)", (_name, open) => {
  let one: Service;
  let two: Service;
  useInstances(open, (first, second) => {
    [one, two] = [first, second];
  });

  const status = async (service: Service, id: SiteId, from: string, headers: Record<string, string> = {}) =>
    (await json(await service.call(`/sites/${id}/api/status`, { headers }, from))) as {
      remaining: number;
      paid: number;
    };
  const postPayment = (
    service: Service,
    id: SiteId,
    from: string,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    service.call(
      `/sites/${id}/api/payment`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ token: "USDC", ...body }),
      },
      from,
    );
  /** Uses up `from`'s free question on site `id` and returns the 402. */
  const offerOf = async (id: SiteId, from: string) => {
    expect((await one.ask(`/sites/${id}/api/chat`, QUESTION[id], from)).status).toBe(200);
    const offer = await one.ask(`/sites/${id}/api/chat`, QUESTION[id], from);
    expect(offer.status).toBe(402);
    return offer;
  };

  test.each(["alpha", "beta"] as const)(
    "%s: a posted signature with the site's memo pays its wallet, once",
    async (id) => {
      const from = `198.51.100.${id === "alpha" ? 10 : 11}`;
      const payer = await chain.fundPayer();
      const moved = await watch(payer.address);
      const info = await json(await one.call(`/sites/${id}/api/payment/info`, {}, from));
      expect(info.recipient).toBe(wallets[id]);
      const signature = await chain.sendUsdc({
        to: wallets[id],
        units: 20_000n,
        memo: info.memo as string,
        from: payer,
      });
      // Claimed on the other site first: its wallet got nothing, so it is refused and credits nothing.
      const elsewhere = await postPayment(two, OTHER[id], from, { signature, amount: 0.02 });
      expect(elsewhere.status).toBe(400);
      expect((await status(one, OTHER[id], from)).paid).toBe(0);
      const claimed = await postPayment(two, id, from, { signature, amount: 0.02 });
      expect(claimed.status).toBe(200);
      expect(await json(claimed)).toMatchObject({
        success: true,
        queriesGranted: Number(20_000n / PRICE[id]),
      });
      expect((await status(one, id, from)).paid).toBe(Number(20_000n / PRICE[id]));
      // Claimed again, here or there: refused, nothing more credited anywhere.
      expect((await postPayment(one, id, from, { signature, amount: 0.02 })).status).not.toBe(200);
      expect((await postPayment(one, OTHER[id], from, { signature, amount: 0.02 })).status).not.toBe(200);
      expect((await status(two, id, from)).paid).toBe(Number(20_000n / PRICE[id]));
      expect((await status(two, OTHER[id], from)).paid).toBe(0);
      expect(await moved()).toEqual(paid(id, 20_000n));
    },
  );

  test("a transfer to beta's wallet with alpha's memo pays nothing on either site", async () => {
    const from = "198.51.100.12";
    const payer = await chain.fundPayer();
    const alphaMemo = (await json(await one.call("/sites/alpha/api/payment/info", {}, from))).memo as string;
    const signature = await chain.sendUsdc({
      to: wallets.beta,
      units: 20_000n,
      memo: alphaMemo,
      from: payer,
    });
    const onBeta = await postPayment(two, "beta", from, { signature, amount: 0.02 });
    expect(onBeta.status).toBe(400);
    const onAlpha = await postPayment(two, "alpha", from, { signature, amount: 0.02 });
    expect(onAlpha.status).toBe(400);
    expect((await status(one, "alpha", from)).paid).toBe(0);
    expect((await status(one, "beta", from)).paid).toBe(0);
  });

  test.each(["alpha", "beta"] as const)(
    "%s: the spec's X-Payment-Authorization pays its own request, not the other site's",
    async (id) => {
      const from = `198.51.100.${id === "alpha" ? 20 : 21}`;
      const payer = await chain.fundPayer();
      const request = await readPaymentRequest(await offerOf(id, from));
      expect(request.payment_address).toBe(wallets[id]);
      const moved = await watch(payer.address);
      const signature = await createTransfer(request, x402Wallet(payer));
      const { header } = await buildAuthorization(request, x402Wallet(payer), signature);
      // The other site: its request id names nothing there, and its wallet got nothing.
      await offerOf(OTHER[id], from);
      const replayed = await two.ask(`/sites/${OTHER[id]}/api/chat`, QUESTION[OTHER[id]], from, {
        "X-Payment-Authorization": header,
      });
      expect(await refusal(replayed)).toEqual([403, "PAYMENT_UNKNOWN"]);
      expect((await status(one, OTHER[id], from)).paid).toBe(0);
      const answered = await two.ask(`/sites/${id}/api/chat`, QUESTION[id], from, {
        "X-Payment-Authorization": header,
      });
      expect(answered.status).toBe(200);
      const units = BigInt(Math.round(Number(request.max_amount_required) * 1e6));
      expect((await status(one, id, from)).paid).toBe(Number(units / PRICE[id]) - 1);
      expect(await moved()).toEqual(paid(id, units));
    },
  );

  test.each(["alpha", "beta"] as const)(
    "%s: x402 v2 pays the site's payTo; the payload replayed on the other site moves nothing",
    async (id) => {
      if (facilitator === undefined) throw new Error("no facilitator");
      const from = `198.51.100.${id === "alpha" ? 30 : 31}`;
      const payer = await chain.fundPayer();
      const offer = await offerOf(id, from);
      const header = await officialPaymentHeader(
        { signer: payer, rpcUrl: chain.url, mint: chain.mint },
        offer,
      );
      await offerOf(OTHER[id], from);
      const moved = await watch(payer.address);
      const replayed = await two.ask(`/sites/${OTHER[id]}/api/chat`, QUESTION[OTHER[id]], from, {
        "PAYMENT-SIGNATURE": header,
      });
      expect(await refusal(replayed)).toEqual([403, "PAYMENT_UNKNOWN"]);
      expect(await moved()).toEqual(NOTHING);
      expect((await status(one, OTHER[id], from)).paid).toBe(0);
      const answered = await two.ask(`/sites/${id}/api/chat`, QUESTION[id], from, {
        "PAYMENT-SIGNATURE": header,
      });
      expect(answered.status).toBe(200);
      expect(await moved()).toEqual(paid(id, 10_000n, true));
      expect((await status(one, id, from)).paid).toBe(Number(10_000n / PRICE[id]) - 1);
      // And once settled, on the other site again: still nothing there.
      const again = await one.ask(`/sites/${OTHER[id]}/api/chat`, QUESTION[OTHER[id]], from, {
        "PAYMENT-SIGNATURE": header,
      });
      expect(await refusal(again)).toEqual([403, "PAYMENT_UNKNOWN"]);
      expect(await moved()).toEqual(paid(id, 10_000n, true));
    },
  );

  /** The official MCP client on site `id`'s /mcp of `service`, every request from `from`. */
  const mcpOn = async (service: Service, id: SiteId, from: string) => {
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => service.app.fetch(request, { remoteAddress: from }),
    });
    servers.push(server);
    const client = new Client({ name: "test-agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/sites/${id}/mcp`)),
    );
    return client;
  };

  test.each(["alpha", "beta"] as const)(
    "%s: a paid MCP ask_docs pays the site; the payment replayed on the other site is refused",
    async (id) => {
      if (facilitator === undefined) throw new Error("no facilitator");
      const from = `198.51.100.${id === "alpha" ? 40 : 41}`;
      const here = await mcpOn(one, id, from);
      const there = await mcpOn(two, OTHER[id], from);
      const ask = (client: Client, site: SiteId, meta?: unknown) =>
        client.callTool({
          name: "ask_docs",
          arguments: { question: QUESTION[site] },
          ...(meta === undefined ? {} : { _meta: { "x402/payment": meta } }),
        });
      expect((await ask(here, id)).isError).toBeFalsy();
      expect((await ask(there, OTHER[id])).isError).toBeFalsy();
      const offered = await ask(here, id);
      expect(offered.isError).toBe(true);
      const required = offered.structuredContent as unknown as PaymentRequired;
      expect(required.accepts[0]).toMatchObject({ payTo: wallets[id], amount: "10000" });
      const payer = await chain.fundPayer();
      const payload = await officialClient({
        signer: payer,
        rpcUrl: chain.url,
        mint: chain.mint,
      }).createPaymentPayload(required);
      const moved = await watch(payer.address);
      const replayed = await ask(there, OTHER[id], payload);
      expect(replayed.isError).toBe(true);
      expect(await moved()).toEqual(NOTHING);
      const answered = await ask(here, id, payload);
      expect(answered.isError).toBeFalsy();
      expect(await moved()).toEqual(paid(id, 10_000n, true));
      const again = await ask(there, OTHER[id], payload);
      expect(again.isError).toBe(true);
      expect(await moved()).toEqual(paid(id, 10_000n, true));
      expect((await status(two, OTHER[id], from)).paid).toBe(0);
      expect((await status(two, id, from)).paid).toBe(Number(10_000n / PRICE[id]) - 1);
      await here.close();
      await there.close();
    },
  );

  test("one transfer to a wallet two sites share is claimed on one of them only", async () => {
    const from = "198.51.100.60";
    const claim = (service: Service, path: string, signature: string) =>
      service.call(
        path,
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ signature, amount: 0.01, token: "USDC" }),
        },
        from,
      );
    const remaining = async (path: string) =>
      ((await json(await one.call(path, {}, from))) as { paid: number }).paid;
    // Without a memo: whichever site claims it first is paid, the other refuses it.
    const bare = await chain.sendUsdc({ units: 10_000n });
    expect((await claim(one, "/sites/gamma/api/payment", bare)).status).toBe(200);
    expect((await refusal(await claim(two, "/api/payment", bare)))[1]).toBe("SIGNATURE_ALREADY_USED");
    expect(await remaining("/api/status")).toBe(0);
    expect(await remaining("/sites/gamma/api/status")).toBe(10);
    // The other way round, too.
    const other = await chain.sendUsdc({ units: 10_000n });
    expect((await claim(two, "/api/payment", other)).status).toBe(200);
    expect((await refusal(await claim(one, "/sites/gamma/api/payment", other)))[1]).toBe(
      "SIGNATURE_ALREADY_USED",
    );
    expect(await remaining("/api/status")).toBe(10);
    expect(await remaining("/sites/gamma/api/status")).toBe(10);
    // Two hosted sites naming one wallet.
    const toAlpha = await chain.sendUsdc({ to: wallets.alpha, units: 10_000n });
    expect((await claim(two, "/sites/delta/api/payment", toAlpha)).status).toBe(200);
    expect((await refusal(await claim(one, "/sites/alpha/api/payment", toAlpha)))[1]).toBe(
      "SIGNATURE_ALREADY_USED",
    );
    expect(await remaining("/sites/alpha/api/status")).toBe(0);
    expect(await remaining("/sites/delta/api/status")).toBe(10);
  });

  /** Signs `signer` in on site `id` through `service` and returns the session token. */
  const signIn = async (service: Service, id: SiteId, signer: KeyPairSigner, from: string) => {
    const challenge = (await (
      await service.call(`/sites/${id}/api/session/challenge`, {}, from)
    ).json()) as Parameters<typeof proofFor>[1];
    const proof = await proofFor(signer, challenge);
    const response = await service.call(
      `/sites/${id}/api/session`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ proof }) },
      from,
    );
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.wallet).toBe(signer.address);
    return (body.session as { token: string }).token;
  };

  test("a wallet signed in on both sites: credits bought on alpha are spent on alpha only", async () => {
    const payer = await chain.fundPayer();
    const from = "198.51.100.50";
    const tokens = {
      alpha: await signIn(one, "alpha", payer, from),
      beta: await signIn(two, "beta", payer, from),
    };
    const session = (id: SiteId) => ({ "X-Wallet-Session": tokens[id] });
    const info = await json(
      await one.call("/sites/alpha/api/payment/info", { headers: session("alpha") }, from),
    );
    const signature = await chain.sendUsdc({
      to: wallets.alpha,
      units: 10_000n,
      memo: info.memo as string,
      from: payer,
    });
    const bought = await postPayment(two, "alpha", from, { signature, amount: 0.01 }, session("alpha"));
    expect(bought.status).toBe(200);
    expect((await json(bought)).wallet).toBe(payer.address);
    // Alpha's session on beta is unknown; beta's own session holds nothing bought on alpha.
    expect(
      (await one.ask("/sites/beta/api/chat", QUESTION.beta, "198.51.100.51", session("alpha"))).status,
    ).toBe(401);
    expect((await status(one, "beta", "198.51.100.51", session("beta"))).paid).toBe(0);
    expect((await status(two, "alpha", "198.51.100.51", session("alpha"))).paid).toBe(10);
    // From another address with beta's session: its free question, then a 402, never alpha's credits.
    expect(
      (await two.ask("/sites/beta/api/chat", QUESTION.beta, "198.51.100.52", session("beta"))).status,
    ).toBe(200);
    expect(
      (await two.ask("/sites/beta/api/chat", QUESTION.beta, "198.51.100.52", session("beta"))).status,
    ).toBe(402);
    expect(
      (await one.ask("/sites/alpha/api/chat", QUESTION.alpha, "198.51.100.52", session("alpha"))).status,
    ).toBe(200);
    expect((await status(one, "alpha", "198.51.100.53", session("alpha"))).paid).toBe(9);
  });
});
