/**
 * /metrics tells an operator where memory goes: the resident set, the JS heap, and the entries
 * each bounded structure of the memory store holds (with its cap where it has one), so the one
 * that grows can be named.
 */
import { expect, test } from "bun:test";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { DEFAULT_INSIGHTS_BOUNDS } from "../../core/config/config-insights.ts";
import { METRICS_TOKEN, testApps } from "../support/test-app.ts";

const build = testApps();
const scrape = async (t: ReturnType<typeof build>) =>
  (await t.call("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
const gauge = (text: string, line: string) => Number(new RegExp(`^${line} (\\d+)$`, "m").exec(text)?.[1]);

test("the heap, the resident set and each bounded structure's entries are exposed", async () => {
  const t = build();
  const before = await scrape(t);
  expect(gauge(before, "process_resident_memory_bytes")).toBeGreaterThan(0);
  expect(gauge(before, "js_heap_used_bytes")).toBeGreaterThan(0);
  expect(gauge(before, 'bounded_structure_cap\\{structure="insight_events"\\}')).toBe(
    DEFAULT_INSIGHTS_BOUNDS.maxEvents,
  );

  for (const client of ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
    expect((await t.call("/api/payment/info", {}, client)).status).toBe(200);
  const after = await scrape(t);
  // A memo reference is sealed: the payment details keep nothing, and no structure holds them.
  expect(after).not.toContain("memo_references");
  expect(gauge(after, 'bounded_structure_entries\\{structure="quota_states"\\}')).toBe(0);
  // A sign-in challenge is sealed: nothing is held until a sign-in with it succeeds.
  expect((await t.call("/api/session/challenge")).status).toBe(200);
  expect(gauge(await scrape(t), 'bounded_structure_entries\\{structure="sign_in_nonces"\\}')).toBe(0);
  for (const structure of [
    "quota_states",
    "used_signatures",
    "payment_requests",
    "answer_ids",
    "insight_events",
    "wallet_sessions",
    "payer_links",
  ])
    expect(gauge(after, `bounded_structure_entries\\{structure="${structure}"\\}`)).toBeGreaterThanOrEqual(0);
});

test("a structure filled past its cap reads exactly its cap", async () => {
  const maxEvents = 5;
  const limits = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 120_000 };
  const t = build({
    adminToken: "test-admin-token-0123456789",
    store: MemoryStore.layer(limits, { retentionMs: DEFAULT_INSIGHTS_BOUNDS.retentionMs, maxEvents }),
  });
  // Each answered question is an insight event: twice the cap of them, from several clients.
  for (let i = 0; i < 2 * maxEvents; i++) {
    const res = await t.call(
      "/api/chat",
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: `How do I write file ${i}?` }),
      },
      `203.0.113.${10 + i}`,
    );
    expect(res.status).toBe(200);
  }
  const text = await scrape(t);
  expect(gauge(text, 'bounded_structure_cap\\{structure="insight_events"\\}')).toBe(maxEvents);
  expect(gauge(text, 'bounded_structure_entries\\{structure="insight_events"\\}')).toBe(maxEvents);
});
