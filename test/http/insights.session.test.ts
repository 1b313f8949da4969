/**
 * A scripted session through the real app, then the insights contain exactly it: answered,
 * declined, streamed and voted questions and two payments with real signed USDC transfers on
 * the local chain, on the memory store and on a real Redis. The export has the same events as
 * CSV and JSON, and nothing kept holds a client address.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { Redis } from "ioredis";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { EXPORT_COLUMNS } from "../../src/console/routes/export-rows.ts";
import { ExportResponse, InsightsResponse } from "../../src/http/schemas/admin.ts";
import { startTestChain } from "../support/localnet.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";

const TOKEN = "test-admin-token-0123456789";
const [A, B] = ["203.0.113.7", "198.51.100.9"];
const admin = { headers: { Authorization: `Bearer ${TOKEN}` } };

let chain: Awaited<ReturnType<typeof startTestChain>>;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.stop());

const build = testApps();
const app = (store?: TestAppOptions["store"]) =>
  build({
    adminToken: TOKEN,
    freeQueries: 2,
    store,
    chain: {
      layer: ChainSolana.layer({ rpcUrl: chain.url, baseDelayMs: 20, timeoutMs: 400 }),
      usdcMint: chain.mint,
      wallet: chain.serviceWallet,
    },
  });

const json = (body: unknown) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** Pays `amount` USDC from `from` with a real transfer; the grant's status. */
const pay = async (t: TestApp, amount: number, from: string) => {
  const signature = await chain.sendUsdc({ units: BigInt(Math.round(amount * 1_000_000)) });
  return (await t.pay({ signature, amount, token: "USDC" }, from)).status;
};

/** The session; returns the answer id A voted down. */
const runSession = async (t: TestApp) => {
  const ask = async (message: string, from: string, extra: Record<string, unknown> = {}) => {
    const res = await t.chat(message, from, extra);
    expect(res.status).toBe(200);
    return res.json();
  };
  await ask("How do I pay?", A, { conversationId: "conv-a" }); // free
  await ask("how do i pay", A, { conversationId: "conv-a" }); // free
  expect((await t.chat("One more?", A)).status).toBe(402); // not answered: not recorded
  expect(await pay(t, 0.05, A)).toBe(200);
  const streamed = await t.chat("Where are the logs? mail me at joe@example.com", A, { stream: true });
  const text = await streamed.text(); // paid
  const answerId = /"answerId":"([0-9a-f-]{36})"/.exec(text)?.[1];
  t.switches.noResults = true;
  await ask("Как оплатить?", A); // declined, uncharged
  t.switches.noResults = false;
  const free = await ask("Can I stream answers?", B); // free
  expect((await t.call("/api/feedback", json({ answerId, vote: "up" }), A)).status).toBe(200);
  expect(
    (await t.call("/api/feedback", json({ answerId, vote: "down", comment: "call 555 123 4567" }), A)).status,
  ).toBe(200);
  expect((await t.call("/api/feedback", json({ answerId: free.answerId, vote: "up" }), B)).status).toBe(200);
  expect(await pay(t, 0.01, B)).toBe(200);
  // free: a transfer without B's memo credits B itself (its free questions go first), not a wallet
  await ask("HOW DO I PAY??", B);
  return answerId;
};

/** Everything the insights API and the export say after the session. */
const checkInsights = async (t: TestApp, downVoted: string | undefined) => {
  const res = await t.call("/api/admin/insights", admin);
  expect(res.status).toBe(200);
  const report = await res.json();
  expect(
    Result.isSuccess(Schema.decodeUnknownResult(InsightsResponse)(report, { onExcessProperty: "error" })),
  ).toBe(true);
  expect(report.totals).toMatchObject({
    questions: 6,
    answered: 5,
    declined: 1,
    free: 4,
    paid: 1,
    votesUp: 1,
    votesDown: 1,
    conversations: 1,
  });
  expect(report.questionsPerDay.at(-1)).toMatchObject({ questions: 6, declined: 1 });
  expect(report.questionsPerDay.slice(0, -1).every((day: { questions: number }) => day.questions === 0)).toBe(
    true,
  );
  expect(report.gaps).toMatchObject([{ question: "Как оплатить?", count: 1, declined: 1 }]);
  // Every answered question retrieved the same top passages (the scripted index): one group.
  expect(report.topQuestions.map((g: { count: number; declined: number }) => [g.count, g.declined])).toEqual([
    [5, 0],
    [1, 1],
  ]);
  expect(report.downVoted).toMatchObject([
    {
      answerId: downVoted,
      question: "Where are the logs? mail me at [redacted]",
      comment: "call [redacted]",
      sources: [{ title: "Doc 1", url: "https://docs.example.com/doc-1.html#section" }],
    },
  ]);
  expect(report.mostCitedPages).toMatchObject([
    { page: "https://docs.example.com/doc-1.html", citations: 5 },
  ]);
  expect(report.revenue).toMatchObject({
    units: 60_000,
    usdc: "0.06",
    payments: 2,
    payingClients: 2,
    queriesBought: 60,
    queriesUsed: 1,
    byDialect: [
      { dialect: "signature", payments: 2, units: 60_000, usdc: "0.06" },
      { dialect: "x402", payments: 0 },
      { dialect: "x402-v2", payments: 0 },
      { dialect: "x402-mcp", payments: 0 },
    ],
  });
  expect(report.questionsByChannel).toEqual([
    { channel: "chat", questions: report.totals.questions },
    { channel: "mcp", questions: 0 },
  ]);
  expect(report.revenue.perDay.at(-1)).toMatchObject({
    units: 60_000,
    usdc: "0.06",
    payments: 2,
    payingClients: 2,
  });

  const csv = await t.call("/api/admin/export", admin);
  expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(csv.headers.get("content-disposition")).toMatch(
    /^attachment; filename="insights-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv"$/,
  );
  const rows: Record<string, string>[] = parse(await csv.text(), { columns: true });
  expect(Object.keys(rows[0] ?? {})).toEqual([...EXPORT_COLUMNS]);
  expect(rows.map((row) => row.type).sort()).toEqual([
    ...Array(2).fill("payment"),
    ...Array(6).fill("question"),
    ...Array(3).fill("vote"),
  ]);
  expect(rows.filter((row) => row.type === "payment").map((row) => row.usdc)).toEqual(["0.05", "0.01"]);
  const exported = await (await t.call("/api/admin/export?format=json", admin)).json();
  expect(
    Result.isSuccess(Schema.decodeUnknownResult(ExportResponse)(exported, { onExcessProperty: "error" })),
  ).toBe(true);
  expect(exported.events).toHaveLength(11);
  const everything = JSON.stringify([report, exported]) + JSON.stringify(rows);
  for (const ip of [A, B]) expect(everything).not.toContain(ip);
  expect(everything).not.toContain("joe@example.com");
};

describe("the insights after a scripted session", () => {
  test("on the memory store: exactly the session's counts", async () => {
    const t = app();
    const downVoted = await runSession(t);
    await checkInsights(t, downVoted);
  }, 30_000);

  describe.skipIf(!redisServerAvailable())("on a real Redis", () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(() => redis.stop());

    test("exactly the session's counts, read by a second instance too; no address in the stored log", async () => {
      const store = () =>
        RedisStore.layer({
          url: redis.url,
          limits: { freePerDay: 2, paidDailyCap: 1000, holdTtlMs: 120_000 },
          keyPrefix: "session:",
        });
      const t = app(store());
      const downVoted = await runSession(t);
      await checkInsights(t, downVoted);
      // Another instance on the same Redis sees the same report.
      await checkInsights(app(store()), downVoted);
      const raw = new Redis(redis.url);
      try {
        const members = await raw.zrange("session:insights:events", "0", "-1");
        expect(members).toHaveLength(11);
        for (const ip of [A, B]) expect(members.join("\n")).not.toContain(ip);
      } finally {
        raw.disconnect();
      }
    }, 60_000);
  });
});
