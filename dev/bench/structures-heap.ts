/**
 * The heap each bounded structure of the memory store holds when filled as the soak fills it
 * (`bun dev/bench/structures-heap.ts`): 65,536 client addresses with a quota state (a memo
 * reference is sealed: none is kept), 100,000 answer ids and 100,000 insight events (question events with five sources),
 * each through the very code the store runs, with fresh strings per request as the service
 * makes them. JS heap after a full GC before and after each fill; printed per entry.
 */
import * as Result from "effect/Result";
import { newHoldId, randomBase58 } from "../../adapters/shared/random-ids.ts";
import { MAX_ANSWERS, makeMemoryFeedback } from "../../adapters/store-memory/answers/memory-feedback.ts";
import { makeMemoryInsights } from "../../adapters/store-memory/insights/memory-insights.ts";
import { makeMemoryState } from "../../adapters/store-memory/memory-state.ts";
import { DEFAULT_INSIGHTS_BOUNDS } from "../../core/config/config-insights.ts";
import type { QuestionEvent } from "../../core/insights/events.ts";
import { HOLD_TTL_MS } from "../../src/runtime/app-layer.ts";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 65_536);
const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: HOLD_TTL_MS };
const NOW = Date.UTC(2030, 0, 15, 12);
/** A new string each call, as a request's parsing makes one (not a shared literal). */
const fresh = (text: string) => ` ${text}`.slice(1);
const address = (i: number) => fresh(`10.9.${(i >> 8) & 255}.${i & 255}`);

const heap = () => {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
};
const rows: Array<{ structure: string; entries: number; bytes: number }> = [];
const measure = (structure: string, entries: number, fill: () => void) => {
  const before = heap();
  fill();
  rows.push({ structure, entries, bytes: heap() - before });
};

const state = makeMemoryState(LIMITS, { holdId: newHoldId });
measure("quota state per client (one question)", CLIENTS, () => {
  for (let i = 0; i < CLIENTS; i++) {
    const reserved = state.reserve(address(i), NOW);
    if (Result.isFailure(reserved)) throw new Error("reserve failed");
    state.commit(address(i), reserved.success.hold.id, NOW);
  }
});

const answers = makeMemoryFeedback(() => crypto.randomUUID());
measure("answer id", MAX_ANSWERS, () => {
  for (let i = 0; i < MAX_ANSWERS; i++) answers.issue(address(i % CLIENTS), NOW + i);
});

// The demo index's passages as retrieval returns them: a handful of distinct texts.
const passage = (n: number) => ({
  passage: fresh(`README.md#${n}`),
  title: fresh(`Paid docs chat › Section ${n}`),
  url: "",
  page: fresh("README.md"),
  cited: n % 2 === 0,
});
const log = makeMemoryInsights(DEFAULT_INSIGHTS_BOUNDS);
const events = DEFAULT_INSIGHTS_BOUNDS.maxEvents;
measure("insight event (question, 5 sources)", events, () => {
  for (let i = 0; i < events; i++) {
    const event: QuestionEvent = {
      _tag: "question",
      at: NOW + i,
      visitor: randomBase58(22),
      question: fresh("How do I pay for more questions?"),
      declined: false,
      billing: "free",
      conversation: null,
      answerId: crypto.randomUUID(),
      latencyMs: 3,
      sources: [1, 2, 3, 4, 5].map((n) => passage((i + n) % 12)),
      channel: "chat",
    };
    log.append(event);
  }
});

console.log("structure | entries | heap | per entry");
for (const { structure, entries, bytes } of rows)
  console.log(
    `${structure} | ${entries} | ${(bytes / 2 ** 20).toFixed(1)} MB | ${(bytes / entries).toFixed(0)} B`,
  );
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
console.log(`total | | ${(total / 2 ** 20).toFixed(1)} MB |`);
// Keep the structures alive until measured.
if (state.sizes().quotas + log.size() < 0) console.log(answers);
