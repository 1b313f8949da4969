import { describe, expect, test } from "bun:test";
import { testApps } from "../support/test-app.ts";

const build = testApps();

describe("quota under concurrency (memory store)", () => {
  test("50 simultaneous chats with 3 free queries -> exactly 3 answers and 47 x 402", async () => {
    const t = build({ freeQueries: 3 });
    t.switches.generationDelayMs = 20;
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => t.chat(`question ${i}`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(47);
    expect((await (await t.call("/api/status")).json()).remaining).toBe(0);
  });
});
