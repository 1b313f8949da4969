/**
 * /readyz and /metrics on the public surface, on the real app with the real chain reader against
 * a loopback JSON-RPC that counts the probes it gets (each one is a call on the operator's paid
 * RPC plan): a hammered /readyz probes upstream at most once per 5 s, however many callers;
 * "not ready" names no host or collection without METRICS_TOKEN, and a stranger's /readyz reads
 * nothing beyond the cached probe (not the docs sync's record) and counts toward the protection
 * limit; /metrics needs that token, and is not served at all without one configured.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { USDC_MINT, WALLET } from "../support/parsed-tx.ts";
import { METRICS_TOKEN, type TestApp, testApps } from "../support/test-app.ts";
import { offlineFacilitator } from "../support/x402-v2.ts";

let probes = 0;
let failing = false;
let rpc: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  rpc = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      const { id, method } = (await request.json()) as { id: unknown; method: string };
      if (method === "getSlot") probes += 1;
      if (failing) return new Response("upstream down", { status: 500 });
      return Response.json({ jsonrpc: "2.0", id, result: 1234 });
    },
  });
});
afterAll(() => rpc?.stop(true));

const build = testApps();
const withChain = (options: Parameters<typeof build>[0] = {}) =>
  build({
    chain: {
      layer: ChainSolana.layer({ rpcUrl: `http://127.0.0.1:${rpc.port}`, attempts: 1, timeoutMs: 500 }),
      usdcMint: USDC_MINT,
      wallet: WALLET,
    },
    ...options,
  });

/** `count` calls at once, from 20 clients (each within its in-flight cap). */
const hammer = (t: TestApp, count: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => t.call("/readyz", {}, `198.51.100.${i % 20}`)));

describe("/readyz answers from a cached probe", () => {
  test("500 concurrent calls, then 50 every 100 ms for 1.5 s: one upstream probe", async () => {
    probes = 0;
    failing = false;
    const t = withChain();
    const first = await hammer(t, 500);
    expect(new Set(first.map((response) => response.status))).toEqual(new Set([200]));
    const deadline = performance.now() + 1500;
    while (performance.now() < deadline) {
      const more = await hammer(t, 50);
      expect(more.every((response) => response.status === 200)).toBe(true);
      await Bun.sleep(100);
    }
    expect(probes).toBe(1);
  });

  test("a new probe once 5 s have passed since the last, not before", async () => {
    probes = 0;
    failing = false;
    let now = 1_700_000_000_000;
    const t = withChain({ now: () => now });
    await hammer(t, 100);
    expect(probes).toBe(1);
    now += 4_999;
    await hammer(t, 100);
    expect(probes).toBe(1);
    now += 1;
    await hammer(t, 100);
    expect(probes).toBe(2);
  });
});

describe("not ready: the problems only for the operator", () => {
  test("without the token: which check failed, not what or where; with it: the problem", async () => {
    probes = 0;
    failing = true;
    const now = 1_700_000_000_000;
    const t = withChain({ now: () => now });
    try {
      const anonymous = await t.call("/readyz");
      expect(anonymous.status).toBe(503);
      expect(await anonymous.json()).toEqual({
        status: "not ready",
        checks: { store: "ok", chain: "unavailable", retrieval: "ok" },
      });
      const wrong = await t.call("/readyz", { headers: { Authorization: "Bearer not-the-metrics-token" } });
      expect(Object.keys(await wrong.json())).toEqual(["status", "checks"]);
      const operator = await t.call("/readyz", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(operator.status).toBe(503);
      const body = await operator.json();
      expect(Object.keys(body.problems)).toEqual(["chain"]);
      expect(body.problems.chain).toMatch(/./);
      expect(probes).toBe(1); // three callers, one probe
      expect(t.metrics.render()).toContain("metrics_auth_failures_total 1");
    } finally {
      failing = false;
    }
  });
});

describe("/metrics needs METRICS_TOKEN", () => {
  test("no token, a wrong one: 401; the right one: the metrics; five wrong ones lock the client out", async () => {
    const t = withChain();
    const anonymous = await t.call("/metrics");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(await anonymous.json()).toEqual({
      success: false,
      error: "Send Authorization: Bearer <METRICS_TOKEN>",
      code: "UNAUTHORIZED",
    });
    const ok = await t.call("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("http_requests_total");
    for (let i = 0; i < 5; i++)
      expect((await t.call("/metrics", { headers: { Authorization: `Bearer guess-${i}` } })).status).toBe(
        401,
      );
    const locked = await t.call("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("900");
    expect(t.lines.filter((line) => line.msg === "wrong metrics token")).toHaveLength(5);
    expect(JSON.stringify(t.lines)).not.toContain(METRICS_TOKEN);
  });

  test("without METRICS_TOKEN configured, /metrics is not served at all", async () => {
    const t = withChain({ surface: { metricsToken: undefined } });
    const response = await t.call("/metrics");
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe("NOT_FOUND");
  });
});

describe("/readyz and the x402 v2 fee payer", () => {
  const facilitatorWith = (lamports: bigint, floor: bigint) => offlineFacilitator({ lamports, floor });
  const asOperator = { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } };

  test("whether x402 v2 is offered and the fee payer's SOL: only to the metrics token", async () => {
    const low = withChain({ facilitator: await facilitatorWith(1_000n, 5_000n) });
    const plain = (await (await low.call("/readyz")).json()) as Record<string, unknown>;
    expect(plain.x402).toBeUndefined();
    const operator = await low.call("/readyz", asOperator);
    expect(((await operator.json()) as Record<string, unknown>).x402).toEqual({
      offered: false,
      feePayerLamports: "1000",
    });
    const funded = withChain({ facilitator: await facilitatorWith(9_000n, 5_000n) });
    expect(
      ((await (await funded.call("/readyz", asOperator)).json()) as Record<string, unknown>).x402,
    ).toEqual({
      offered: true,
      feePayerLamports: "9000",
    });
  });
});

describe("/readyz to a stranger: the verdict, nothing read for it, within the protection limit", () => {
  const RECORD = {
    at: Date.UTC(2026, 0, 2, 3, 4, 5),
    ok: true,
    pages: 42,
    changed: 3,
    removed: 1,
    errors: 0,
    url: "https://docs.internal.example/",
    durationMs: 1_234,
    via: "sitemap",
  };

  test("the docs sync's record (a store read) only for the metrics token; strangers read nothing", async () => {
    let reads = 0;
    const t = withChain({
      docsSync: {
        last: async () => {
          reads += 1;
          return RECORD;
        },
      },
    });
    for (let i = 0; i < 50; i++) {
      const plain = await t.call("/readyz", {}, `198.51.100.${i}`);
      expect(plain.status).toBe(200);
      expect(await plain.json()).toEqual({
        status: "ready",
        checks: { store: "ok", chain: "ok", retrieval: "ok" },
      });
    }
    expect(reads).toBe(0);
    const operator = await t.call("/readyz", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect((await operator.json()).docsSync).toEqual({
      lastSync: "2026-01-02T03:04:05.000Z",
      ok: true,
      pages: 42,
      changed: 3,
      removed: 1,
      errors: 0,
      url: "https://docs.internal.example/",
    });
    expect(reads).toBe(1);
  });

  test("one client's /readyz past PROTECTION_RATE_LIMIT in a second: 429; another client is served", async () => {
    const t = withChain({ protectionRps: 5, now: () => 1_700_000_000_000 });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.call("/readyz", {}, "198.51.100.9")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect((await t.call("/readyz", {}, "198.51.100.10")).status).toBe(200);
  });
});
