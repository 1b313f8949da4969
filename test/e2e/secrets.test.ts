/**
 * Secrets never leave the process: the real service is configured with every secret it can
 * hold (a Redis password, an LLM key, a Chroma key, an RPC URL carrying an API key, the
 * wallet's secret key, the owner's admin token and insights salt, the x402 fee payer's secret
 * key and the facilitator's bearer token) and taken through a full run: every endpoint,
 * successes, every kind of refusal, a payment, an x402 v2 payment co-signed by the fee payer,
 * the facilitator endpoints with the right token, a wrong one and none, the LLM failing, the
 * RPC failing, Redis going away and coming back, a graceful stop. Every log line, every response body and every response header is then
 * searched for each secret value; none may appear.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { encodeBase58 } from "../../core/base58.ts";
import type { Keypair } from "../../dev/localnet/keys.ts";
import { keypairJson, newKeypair } from "../../dev/localnet/keys.ts";
import { type LocalChroma, startLocalChroma } from "../support/chroma-server.ts";
import { type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import { waitFor } from "../support/free-port.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { FIXTURE_DOCS, REPO_ROOT, type ServiceProcess, startService } from "../support/service-process.ts";
import { officialFetch, officialPaymentHeader, paymentRequiredOf } from "../support/x402-v2.ts";

const REDIS_PASSWORD = "redis-pw-Zq81x";
const LLM_KEY = "gsk_live_LLMSECRET_93jd";
const VECTOR_KEY = "ck-VECTORSECRET-5521";
const RPC_KEY = "rpc-APIKEY-77aa";
const ADMIN_TOKEN = "admin-TOKEN-secret-8812x";
const INSIGHTS_SALT = "insights-SALT-secret-51q";
const FACILITATOR_TOKEN = "x402-FACILITATOR-token-secret-7781";
const METRICS_TOKEN = "metrics-secret-token-0123456789";

/** A secret key in every form a careless log line could print it. */
const keyForms = (keypair: Keypair): ReadonlyArray<string> => {
  const bytes = Uint8Array.from(keypair.secretKey);
  return [
    JSON.stringify(Array.from(bytes)),
    Array.from(bytes.slice(0, 8)).join(","),
    Array.from(bytes.slice(0, 8)).join(", "),
    encodeBase58(bytes),
    encodeBase58(bytes.slice(0, 32)),
    Buffer.from(bytes).toString("base64"),
    Buffer.from(bytes.slice(0, 32)).toString("hex"),
  ];
};

let redis: RedisServer | undefined;
let chain: TestChain | undefined;
let groq: FakeGroq | undefined;
let chroma: LocalChroma | undefined;
let service: ServiceProcess | undefined;
/** Everything a client saw: status lines, headers and bodies. */
const seen: string[] = [];
let secrets: ReadonlyArray<string> = [];

const call = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${service!.url}${path}`, init);
  const body = await res.text();
  seen.push(`${res.status} ${path}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${body}`);
  return { status: res.status, body };
};
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** Every response of `fetch`, recorded like `call`'s. */
const recorded = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const res = await fetch(input, init);
  const path = new URL(res.url).pathname;
  seen.push(
    `${res.status} ${path}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${await res.clone().text()}`,
  );
  return res;
}) as typeof fetch;

/**
 * The paths that use the fee payer and the facilitator token: our facilitator verifies (co-signs
 * and simulates) a real payload with the right token, refuses a wrong token and none, and the
 * official client buys questions on /api/chat with a transfer the fee payer co-signs and pays for.
 */
const payWithX402V2 = async (chain: TestChain) => {
  const payer = await chain.fundPayer({ usdcUnits: 1_000_000n });
  const wallet = { signer: payer, rpcUrl: chain.url, mint: chain.mint };
  const asked = {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: '{"message":"More?"}',
  };
  const offer = await recorded(`${service!.url}/api/chat`, asked);
  const payload = JSON.parse(atob(await officialPaymentHeader(wallet, offer)));
  const verify = JSON.stringify({
    x402Version: 2,
    paymentPayload: payload,
    paymentRequirements: paymentRequiredOf(offer).accepts[0],
  });
  const facilitator = (path: string, token: string | undefined, body?: string) =>
    recorded(`${service!.url}/x402/${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        "Content-Type": "application/json",
        ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      },
      body,
    });
  expect((await facilitator("supported", FACILITATOR_TOKEN)).status).toBe(200);
  expect(await (await facilitator("verify", FACILITATOR_TOKEN, verify)).json()).toMatchObject({
    isValid: true,
  });
  expect((await facilitator("verify", FACILITATOR_TOKEN, "{broken")).status).toBe(200);
  expect((await facilitator("settle", "x402-wrong-token-000000000", verify)).status).toBe(401);
  expect((await facilitator("supported", undefined)).status).toBe(401);
  expect((await officialFetch(wallet, recorded)(`${service!.url}/api/chat`, asked)).status).toBe(200);
};

describe.skipIf(!redisServerAvailable())("a full run with every secret configured", () => {
  beforeAll(async () => {
    [redis, chain, groq, chroma] = await Promise.all([
      startRedisServer({ password: REDIS_PASSWORD }),
      startTestChain(),
      startFakeGroq({ apiKey: LLM_KEY }),
      startLocalChroma(),
    ]);
    const wallet = await newKeypair();
    const secretKey = keypairJson(wallet);
    const feePayer = await newKeypair(); // pays the fees of x402 v2 transfers: SOL only
    await chain.localnet.airdrop(feePayer.signer.address, 10_000_000_000n);
    await chain.localnet.mintTokens(wallet.signer.address, 0n); // its USDC account, which x402 v2 transfers need
    secrets = [
      REDIS_PASSWORD,
      LLM_KEY,
      ADMIN_TOKEN,
      INSIGHTS_SALT,
      VECTOR_KEY,
      RPC_KEY,
      FACILITATOR_TOKEN,
      METRICS_TOKEN,
      ...keyForms(wallet),
      ...keyForms(feePayer),
    ];
    const env = {
      REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:${redis.port}`,
      LLM_API_KEY: LLM_KEY,
      LLM_BASE_URL: groq.baseUrl,
      CHROMA_URL: chroma.url,
      VECTOR_API_KEY: VECTOR_KEY,
      VECTOR_INDEX_NAME: "widgetron",
      CHAIN_NETWORK: "localnet",
      SOLANA_RPC_URL: `${chain.url}/?api-key=${RPC_KEY}`,
      USDC_MINT_ADDRESS: chain.mint,
      PAYMENT_WALLET_ADDRESS: wallet.signer.address,
      PAYMENT_WALLET_SECRET_KEY: JSON.stringify(secretKey),
      RATE_LIMIT_FREE_QUERIES: "2",
      ADMIN_TOKEN,
      INSIGHTS_SALT,
      // base58 here, the JSON list for the wallet: both forms a key is read in
      X402_FEE_PAYER_SECRET_KEY: encodeBase58(Uint8Array.from(feePayer.secretKey)),
      X402_FACILITATOR_API: "true",
      X402_FACILITATOR_TOKEN: FACILITATOR_TOKEN,
      METRICS_TOKEN,
    };
    const ingest = Bun.spawnSync([process.execPath, join(REPO_ROOT, "src/cli/ingest.ts"), FIXTURE_DOCS], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    seen.push(ingest.stdout.toString(), ingest.stderr.toString());
    if (ingest.exitCode !== 0) throw new Error(`ingest failed: ${ingest.stderr.toString()}`);
    service = await startService({ env });

    // Every endpoint, answered.
    for (const path of [
      "/api/status",
      "/api/payment/info",
      "/healthz",
      "/readyz",
      "/metrics",
      "/openapi.json",
      "/",
      "/nope",
    ])
      await call(path);
    await call("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    await call("/metrics", { headers: { Authorization: "Bearer wrong-metrics-token-0000" } });
    await post("/api/chat", { message: "How do I install Widgetron?" });
    await post("/api/chat", { message: "How do I install Widgetron?" }, { Accept: "text/event-stream" });
    await post("/api/chat", { message: "And then?" }); // 402: quota used up
    await payWithX402V2(chain);
    // Refusals of every kind.
    await post("/api/chat", "{not json");
    await post("/api/chat", { message: "x".repeat(20_000) });
    await post("/api/payment", { signature: "not-a-signature", amount: 0.01, token: "USDC" });
    await post("/api/payment", {
      signature: await chain.sendUsdc({ units: 10_000n }),
      amount: 0.01,
      token: "USDC",
    }); // wrong wallet
    await post("/api/feedback", { answerId: "nope", vote: "up" });
    // The owner's console and API, signed in and not.
    const bearer = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    for (const path of ["/api/admin/insights", "/api/admin/export?format=csv", "/admin"]) {
      await call(path, { headers: bearer });
      await call(path, { headers: { Authorization: "Bearer wrong-token-000000" } });
    }
    await call("/admin/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `token=${encodeURIComponent(ADMIN_TOKEN)}`,
    });
    // A real payment to the configured wallet, then its replay.
    const signature = await chain.sendUsdc({ to: wallet.signer.address, units: 50_000n });
    await post("/api/payment", { signature, amount: 0.05, token: "USDC" });
    await post("/api/payment", { signature, amount: 0.05, token: "USDC" });
    // The LLM failing (fallback), the RPC failing (503), Redis gone and back (503, readiness).
    groq.script(
      { kind: "status", status: 401 },
      { kind: "status", status: 500 },
      { kind: "status", status: 500 },
    );
    await post("/api/chat", { message: "How do I configure it?" });
    const faulted = await chain.sendUsdc({ to: wallet.signer.address, units: 10_000n });
    chain.localnet.setFaults({ "*": "http-500" });
    await post("/api/payment", { signature: faulted, amount: 0.01, token: "USDC" });
    await call("/readyz");
    chain.localnet.setFaults({});
    await redis.down();
    await call("/api/status");
    await post("/api/chat", { message: "How do I install Widgetron?" });
    await call("/readyz");
    await call("/readyz", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    await redis.up();
    await waitFor(async () => (await call("/api/status")).status === 200, 10_000, "Redis back");
    expect(await service.stop()).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await service?.dispose();
    await Promise.all([chroma?.stop(), groq?.stop(), chain?.stop()]);
    await redis?.stop();
  });

  test("the run went through the paths that handle secrets", () => {
    const all = seen.join("\n");
    for (const status of ["200 /api/status", "402", "503", "400", "200 /x402/supported", "401 /x402/settle"])
      expect(all).toContain(status);
    const logs = service!.logs().map((line) => String(line.msg));
    for (const msg of [
      "payment granted",
      "x402 v2 payment granted",
      "payment rejected",
      "dependency unavailable",
      "LLM failed, answered extractively",
    ])
      expect(logs).toContain(msg);
  });

  test("no secret value in any log line, response body or response header", () => {
    const output = service!.output();
    const responses = seen.join("\n");
    for (const secret of secrets) {
      expect({ secret, inLogs: output.includes(secret) }).toEqual({ secret, inLogs: false });
      expect({ secret, inResponses: responses.includes(secret) }).toEqual({ secret, inResponses: false });
    }
  });
});
