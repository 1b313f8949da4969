/**
 * A Redis failover under paid traffic, with real processes on loopback: a primary, its replica
 * and Sentinel, the store connected through Sentinel (REDIS_SENTINELS) with its money writes
 * waiting for the replica (REDIS_WAIT_REPLICAS=1, the default behind Sentinel), and real signed
 * transfers on the local chain. Paid by a signature (POST /api/payment), in the spec's 402
 * dialect (X-Payment-Authorization) and by x402 v2 with a payment identifier, then the primary
 * is killed (SIGKILL): until Sentinel has promoted the replica and the client follows, every
 * HTTP request is answered 503 STORE_UNAVAILABLE with Retry-After and MCP a tool error saying to
 * retry (never a 500, never a grant); on the promoted replica the same signature and the same
 * authorization are refused as used, the same x402 payload is answered from its first result,
 * the credits are all there, and the money moved once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { paymentMemo } from "../../core/payments/x402.ts";
import { buildAuthorization, readPaymentRequest } from "../../src/payments/client/payment-client.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import { waitFor } from "../support/free-port.ts";
import { chainReaderOf, type TestChain } from "../support/localnet.ts";
import { connectMcp, textOf } from "../support/mcp-client.ts";
import { type Balances, balancesOf, movedSince, ONE_PAYMENT } from "../support/money-moved.ts";
import { describeWithRedis } from "../support/redis-server.ts";
import { SENTINEL_MASTER, type SentinelSetup, startSentinelSetup } from "../support/redis-topologies.ts";
import { type TestApp, testApps } from "../support/test-app.ts";
import { namedPaymentHeader, settlementOf, startChainWithFacilitator } from "../support/x402-v2.ts";

const LIMITS = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
const BY_SIGNATURE = "198.51.100.81";
const BY_X402 = "198.51.100.82";
const BY_SPEC_402 = "198.51.100.87";

describeWithRedis("a Redis failover behind Sentinel, under paid traffic", () => {
  let chain: TestChain;
  let facilitator: ExactFacilitator | undefined;
  let redis: SentinelSetup;
  let t: TestApp;
  const build = testApps(afterAll);

  beforeAll(async () => {
    [{ chain, facilitator }, redis] = await Promise.all([startChainWithFacilitator(), startSentinelSetup()]);
    if (facilitator === undefined) throw new Error("the local chain's facilitator did not start");
    const [host, port] = redis.sentinels.split(":");
    t = build({
      freeQueries: LIMITS.freePerDay,
      facilitator,
      chain: chainReaderOf(chain),
      store: RedisStore.layer({
        url: {
          kind: "sentinel",
          sentinels: [{ host: host!, port: Number(port) }],
          master: SENTINEL_MASTER,
          password: undefined,
        },
        limits: LIMITS,
        waitReplicas: 1,
        waitTimeoutMs: 1000,
      }),
    });
  }, 40_000);
  const servers: Array<ReturnType<typeof Bun.serve>> = [];
  afterAll(async () => {
    for (const server of servers) server.stop(true);
    await chain?.stop();
    await redis?.stop();
  });

  const remaining = async (from: string) => {
    const response = await t.call("/api/status", {}, from);
    return response.status === 200
      ? ((await response.json()) as { remaining: number }).remaining
      : response.status;
  };

  test("each payment is refused or answered from its first result on the promoted replica, and the credits are there", async () => {
    // Paid by a signature: 10 queries on top of the free one.
    const signature = await chain.sendUsdc({ units: 10_000n });
    const byPayment = () =>
      t.pay({ signature, amount: 0.01, token: "USDC" }, BY_SIGNATURE).then(async (response) => ({
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as { code?: string; queriesGranted?: number },
      }));
    const granted = await byPayment();
    expect(granted.status).toBe(200);
    expect(granted.body.queriesGranted).toBe(10);
    expect(await remaining(BY_SIGNATURE)).toBe(11);

    // Paid in the spec's dialect (X-Payment-Authorization): 10 bought, 1 answered.
    const request = await readPaymentRequest(await exhaustFreeQuestion(t, BY_SPEC_402));
    const specSignature = await chain.sendUsdc({ units: 10_000n, memo: paymentMemo(request.payment_id) });
    const specHeader = (
      await buildAuthorization(
        request,
        { signer: chain.payer, network: "chain-devnet", rpcUrl: chain.url },
        specSignature,
      )
    ).header;
    expect((await askChat(t, BY_SPEC_402, { "X-Payment-Authorization": specHeader })).status).toBe(200);
    expect(await remaining(BY_SPEC_402)).toBe(9);

    // Paid with x402 v2 under a payment id: the free question spent, 10 bought, 1 answered.
    const payer: KeyPairSigner = await chain.fundPayer();
    const wallet = { signer: payer, rpcUrl: chain.url, mint: chain.mint };
    const header = await namedPaymentHeader(
      wallet,
      await exhaustFreeQuestion(t, BY_X402),
      generatePaymentId(),
    );
    const before: Balances = await balancesOf(chain, payer.address);
    const first = await askChat(t, BY_X402, { "PAYMENT-SIGNATURE": header });
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    expect(await remaining(BY_X402)).toBe(9);

    // An agent on MCP, connected before the failover.
    const agent = await connectMcp(t, "198.51.100.86", servers);

    // The primary dies; Sentinel notices after a second and promotes the replica.
    const oldPort = await redis.primaryPort();
    await redis.primary.down("SIGKILL");
    const killedAt = performance.now();
    type Kind =
      | "status"
      | "free question"
      | "signature again"
      | "x402 payload again"
      | "spec authorization again"
      | "mcp";
    const during: Array<{ kind: Kind; status: number; retryAfter: string | null; code: string | undefined }> =
      [];
    const record = (kind: Kind) => async (response: Response) => {
      const replayed = response.headers.get("Payment-Identifier-Replayed") === "true";
      const body = (await response.json().catch(() => ({}))) as { code?: string };
      during.push({
        kind,
        status: response.status,
        retryAfter: response.headers.get("Retry-After"),
        code: replayed ? "REPLAYED" : body.code,
      });
    };
    let promoted = 0;
    const promotion = redis.waitForPromotion(oldPort, 20_000).then((port) => {
      promoted = port;
    });
    // Every kind of request while there is no primary: status, a free question, both payments again.
    while (promoted === 0) {
      await Promise.all([
        t.call("/api/status", {}, "198.51.100.83").then(record("status")),
        askChat(t, "198.51.100.84").then(record("free question")),
        t.pay({ signature, amount: 0.01, token: "USDC" }, BY_SIGNATURE).then(record("signature again")),
        askChat(t, BY_X402, { "PAYMENT-SIGNATURE": header }).then(record("x402 payload again")),
        askChat(t, BY_SPEC_402, { "X-Payment-Authorization": specHeader }).then(
          record("spec authorization again"),
        ),
        // MCP answers in its own terms: a tool error that says to retry, over a 200.
        agent.callTool({ name: "ask_docs", arguments: { question: "How do I write a file?" } }).then(
          (result) => {
            during.push({
              kind: "mcp",
              status: 200,
              retryAfter: null,
              code: result.isError === true ? textOf(result) : "ANSWERED",
            });
          },
          (error: unknown) => {
            during.push({ kind: "mcp", status: 0, retryAfter: null, code: String(error) });
          },
        ),
      ]);
      await Bun.sleep(150);
    }
    await promotion;
    const promotedAfterMs = performance.now() - killedAt;
    expect(promoted).toBe(redis.replica.port);
    // The store answers again once the client has followed Sentinel to the new primary.
    await waitFor(
      async () => (await t.call("/api/status", {}, "198.51.100.85")).status === 200,
      15_000,
      "the store",
    );
    const servedAfterMs = performance.now() - killedAt;
    console.info(
      `failover: promoted after ${Math.round(promotedAfterMs)} ms, served again after ${Math.round(servedAfterMs)} ms`,
    );

    // During the window: 503 STORE_UNAVAILABLE with Retry-After, or a refusal; never a 500, never a grant.
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter(({ status }) => status >= 500 && status !== 503)).toEqual([]);
    const mcp = during.filter(({ kind }) => kind === "mcp");
    expect(mcp.length).toBeGreaterThan(0);
    for (const answer of mcp)
      expect(answer).toEqual({
        kind: "mcp",
        status: 200,
        retryAfter: null,
        code: "The docs assistant is temporarily unavailable; nothing was charged. Try again shortly.",
      });
    const unavailable = during.filter(({ status, kind }) => status === 503 && kind !== "mcp");
    expect(unavailable.length).toBeGreaterThan(0);
    for (const { status, retryAfter, code } of unavailable)
      expect({ status, retryAfter, code }).toEqual({
        status: 503,
        retryAfter: "5",
        code: "STORE_UNAVAILABLE",
      });
    // A payment answered during the window is a refusal or the first result, never a new grant.
    const paymentsAnswered = during.filter(({ kind, status }) => kind.endsWith("again") && status !== 503);
    for (const { kind, status, code } of paymentsAnswered)
      expect({ kind, status, code }).toEqual(
        kind === "signature again"
          ? { kind, status: 400, code: "SIGNATURE_ALREADY_USED" }
          : kind === "spec authorization again"
            ? { kind, status: 403, code: "PAYMENT_ALREADY_USED" }
            : { kind, status: 200, code: "REPLAYED" },
      );

    // On the promoted replica: the signature is used, its credits are there, nothing granted twice.
    const replayed = await byPayment();
    expect(replayed.status).toBe(400);
    expect(replayed.body.code).toBe("SIGNATURE_ALREADY_USED");
    expect(await remaining(BY_SIGNATURE)).toBe(11);
    // The same x402 payload and payment id: the first answer, the same settlement, no more money.
    const again = await askChat(t, BY_X402, { "PAYMENT-SIGNATURE": header });
    expect(again.status).toBe(200);
    expect(again.headers.get("Payment-Identifier-Replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect(settlementOf(again)).toEqual(settlementOf(first));
    expect(await remaining(BY_X402)).toBe(9);
    // The spec's authorization: used, its credits there.
    const specAgain = await askChat(t, BY_SPEC_402, { "X-Payment-Authorization": specHeader });
    expect(specAgain.status).toBe(403);
    expect(((await specAgain.json()) as { code: string }).code).toBe("PAYMENT_ALREADY_USED");
    expect(await remaining(BY_SPEC_402)).toBe(9);
    expect(await movedSince(chain, payer.address, before)).toEqual(ONE_PAYMENT);
  }, 50_000);
});
