import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp } from "../support/test-app.ts";

let current: ReturnType<typeof buildTestApp> | undefined;
afterEach(async () => current?.dispose());

describe("quota under concurrency (memory store)", () => {
  test("50 simultaneous chats with 3 free queries -> exactly 3 answers and 47 x 402", async () => {
    current = buildTestApp({ freeQueries: 3 });
    const t = current;
    t.switches.generationDelayMs = 20;
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => t.chat(`question ${i}`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(47);
    expect((await (await t.call("/api/status")).json()).remaining).toBe(0);
  });
});
