/**
 * Secrets never leave the process: the real service is configured with every secret it can
 * hold (a Redis password, an LLM key, a Chroma key, an RPC URL carrying an API key, the
 * wallet's secret key, the owner's admin token and insights salt) and taken through a full run: every endpoint, successes, every kind of
 * refusal, a payment, the LLM failing, the RPC failing, Redis going away and coming back, a
 * graceful stop. Every log line, every response body and every response header is then
 * searched for each secret value; none may appear.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { encodeBase58 } from "../../core/base58.ts";
import { keypairJson, newKeypair } from "../../src/localnet/keys.ts";
import { type LocalChroma, startLocalChroma } from "../support/chroma-server.ts";
import { type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import { waitFor } from "../support/free-port.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { FIXTURE_DOCS, REPO_ROOT, type ServiceProcess, startService } from "../support/service-process.ts";

const REDIS_PASSWORD = "redis-pw-Zq81x";
const LLM_KEY = "gsk_live_LLMSECRET_93jd";
const VECTOR_KEY = "ck-VECTORSECRET-5521";
const RPC_KEY = "rpc-APIKEY-77aa";
const ADMIN_TOKEN = "admin-TOKEN-secret-8812x";
const INSIGHTS_SALT = "insights-SALT-secret-51q";

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
    secrets = [
      REDIS_PASSWORD,
      LLM_KEY,
      ADMIN_TOKEN,
      INSIGHTS_SALT,
      VECTOR_KEY,
      RPC_KEY,
      JSON.stringify(secretKey),
      secretKey.slice(0, 8).join(","),
      secretKey.slice(0, 8).join(", "),
      encodeBase58(Uint8Array.from(secretKey)),
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
    await post("/api/chat", { message: "How do I install Widgetron?" });
    await post("/api/chat", { message: "How do I install Widgetron?" }, { Accept: "text/event-stream" });
    await post("/api/chat", { message: "And then?" }); // 402: quota used up
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
    for (const status of ["200 /api/status", "402", "503", "400"]) expect(all).toContain(status);
    const logs = service!.logs().map((line) => String(line.msg));
    for (const msg of [
      "payment granted",
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
