/**
 * Prepaid credits on MCP: a wallet that bought through the chat (the official x402 client) asks
 * `ask_docs` with the official MCP SDK client and a sign-in proof made by `@x402/extensions`'
 * SIWX helpers, and is answered without paying (the payer's USDC, the service's USDC and the fee
 * payer's SOL unchanged); the proof is single use (its resend, on this or another instance, is
 * refused with a fresh challenge); the proof may ride the transport's SIGN-IN-WITH-X header or the
 * call's `_meta`; a session from POST /api/session serves many calls; the offer of a priced tool
 * carries the sign-in challenge. On the memory store and on two instances sharing a real Redis.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import type { PaymentRequired } from "@x402/core/types";
import {
  createSIWxPayload,
  encodeSIWxHeader,
  type SIWxExtension,
  type SIWxSigner,
} from "@x402/extensions/sign-in-with-x";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { connectMcp, type ToolResult, textOf } from "../support/mcp-client.ts";
import { balancesOf } from "../support/money-moved.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import { officialFetch, startChainWithFacilitator } from "../support/x402-v2.ts";

const ORIGIN = "https://docs-chat.example";
let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const servers: Array<ReturnType<typeof Bun.serve>> = [];
const build = testApps(afterAll);
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(async () => {
  for (const server of servers) await server.stop(true);
  await chain?.stop();
});

const onChain = (options: TestAppOptions = {}) =>
  build({
    freeQueries: 1,
    surface: { publicOrigin: ORIGIN },
    ...(facilitator === undefined ? {} : { facilitator }),
    chain: chainReaderOf(chain),
    ...options,
  });

const STORES = [
  ["memory", () => [onChain(), undefined] as const],
  [
    "two instances on Redis",
    () => twoOnRedis(shared.redis.url, `mcp-sign-in-${crypto.randomUUID()}:`, (store) => onChain({ store })),
  ],
] as const;
const shared = useRedisServer();

/** A kit signer as @x402/extensions types one (the same signMessages, typed more loosely there). */
const siwxSigner = (signer: KeyPairSigner) => signer as unknown as SIWxSigner;
const balances = (payer: KeyPairSigner) => balancesOf(chain, payer.address);
const question = {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ message: "How do I write a file?" }),
};

/** Buys ten questions through the chat with the official x402 client, from `ip` (its free one first): nine left. */
const buyThroughChat = async (app: TestApp, ip: string, payer: KeyPairSigner) => {
  expect((await app.call("/api/chat", question, ip)).status).toBe(200);
  const viaApp = (async (input: RequestInfo | URL, init?: RequestInit) =>
    app.app.request(new Request(input, init), undefined, { remoteAddress: ip })) as typeof fetch;
  const paid = await officialFetch({ signer: payer, rpcUrl: chain.url, mint: chain.mint }, viaApp)(
    `${ORIGIN}/api/chat`,
    question,
  );
  expect(paid.status).toBe(200);
};

/** The sign-in challenge an offer carries. */
const challengeOf = (offer: ToolResult) => {
  expect(offer.isError).toBe(true);
  const required = offer.structuredContent as unknown as PaymentRequired;
  return required.extensions?.["sign-in-with-x"] as SIWxExtension;
};
/** The proof the official SIWX helper makes for a challenge. */
const proofFor = async (challenge: SIWxExtension, signer: KeyPairSigner) => {
  const chosen = challenge.supportedChains[0]!;
  return createSIWxPayload(
    { ...challenge.info, chainId: chosen.chainId, type: chosen.type },
    siwxSigner(signer),
    challenge.info.uri,
  );
};
const ask = (meta?: Record<string, unknown>) => ({
  name: "ask_docs",
  arguments: { question: "How do I write a file?" },
  ...(meta === undefined ? {} : { _meta: meta }),
});

describe.each(STORES)("sign-in on MCP (%s)", (name, apps) => {
  const skip = name !== "memory" && !redisServerAvailable();
  test.skipIf(skip)(
    "a wallet that bought through the chat is answered over MCP without paying; its proof is single use",
    async () => {
      const [firstApp, secondApp = firstApp] = apps();
      const payer = await chain.fundPayer();
      await buyThroughChat(firstApp, "192.0.2.40", payer);

      const from = "198.51.100.40";
      const first = await connectMcp(firstApp, from, servers);
      const second = await connectMcp(secondApp, from, servers);
      // Its free question, then an offer that carries the sign-in challenge beside the payment.
      expect((await first.callTool(ask())).isError).toBeFalsy();
      const challenge = challengeOf(await first.callTool(ask()));
      expect(challenge.info.uri).toBe(`${ORIGIN}/mcp`);
      expect(challenge.supportedChains[0]).toMatchObject({ chainId: facilitator?.network, type: "ed25519" });

      const proof = await proofFor(challenge, payer);
      const before = await balances(payer);
      const answered = await first.callTool(ask({ "sign-in-with-x": proof }));
      expect(answered.isError).toBeFalsy();
      expect(answered.structuredContent).toMatchObject({ declined: false, remaining: 8 });
      expect(answered._meta?.["x402/payment-response"]).toBeUndefined();
      expect(await balances(payer)).toEqual(before);

      // The same proof again, here or on the other instance: refused, with a fresh challenge.
      for (const client of [first, second]) {
        const replayed = await client.callTool(ask({ "sign-in-with-x": encodeSIWxHeader(proof) }));
        const required = replayed.structuredContent as unknown as PaymentRequired;
        expect(required.error).toContain("SIGN_IN_NONCE_USED");
        expect(challengeOf(replayed).info.nonce).not.toBe(challenge.info.nonce);
      }

      // A fresh proof on the transport's header (the other instance): answered, the next credit.
      const header = encodeSIWxHeader(await proofFor(challengeOf(await second.callTool(ask())), payer));
      const viaHeader = await connectMcp(secondApp, from, servers, { "SIGN-IN-WITH-X": header });
      const byHeader = await viaHeader.callTool(ask());
      expect(byHeader.structuredContent).toMatchObject({ declined: false, remaining: 7 });
      // The header's proof is spent too: the client's next call is refused.
      expect(JSON.stringify((await viaHeader.callTool(ask())).structuredContent)).toContain(
        "SIGN_IN_NONCE_USED",
      );
      expect(await balances(payer)).toEqual(before);
    },
  );

  test.skipIf(skip)(
    "a session from POST /api/session serves every call; a stranger's wallet pays",
    async () => {
      const [firstApp, secondApp = firstApp] = apps();
      const payer = await chain.fundPayer();
      await buyThroughChat(firstApp, "192.0.2.41", payer);
      const from = "198.51.100.41";
      const client = await connectMcp(firstApp, from, servers);
      expect((await client.callTool(ask())).isError).toBeFalsy();
      const proof = await proofFor(challengeOf(await client.callTool(ask())), payer);
      const opened = await firstApp.call(
        "/api/session",
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ proof }) },
        from,
      );
      expect(opened.status).toBe(200);
      const token = ((await opened.json()) as { session: { token: string } }).session.token;
      const before = await balances(payer);
      const withSession = await connectMcp(secondApp, from, servers, { "X-Wallet-Session": token });
      for (const remaining of [8, 7, 6])
        expect((await withSession.callTool(ask())).structuredContent).toMatchObject({ remaining });
      expect(await balances(payer)).toEqual(before);

      // A wallet that never paid signs in and still gets the offer: nothing to spend.
      const stranger = await chain.fundPayer();
      const strangerProof = await proofFor(challengeOf(await client.callTool(ask())), stranger);
      const offered = await client.callTool(ask({ "sign-in-with-x": strangerProof }));
      expect((offered.structuredContent as unknown as PaymentRequired).accepts[0]?.amount).toBe("10000");
      expect(textOf(offered)).toContain("x402Version");
    },
  );
});
