/** The lock-out after wrong admin tokens: per client, for the window begun by the first failure, bounded. */
import { expect, test } from "bun:test";
import { failureLimiter } from "../../src/hono-kit/failure-limiter.ts";

test("five failures lock a client until the window of its first failure ends; a success clears them", () => {
  let now = 1_000_000;
  const limiter = failureLimiter({ maxFailures: 5, windowMs: 60_000, now: () => now });
  for (let i = 0; i < 4; i++) limiter.fail("a");
  expect(limiter.lockedFor("a")).toBe(0);
  now += 10_000;
  limiter.fail("a");
  expect(limiter.lockedFor("a")).toBe(50_000);
  expect(limiter.lockedFor("b")).toBe(0);
  now += 49_999;
  expect(limiter.lockedFor("a")).toBe(1);
  now += 1;
  expect(limiter.lockedFor("a")).toBe(0);
  limiter.fail("a");
  expect(limiter.lockedFor("a")).toBe(0); // a new window, one failure in it
  for (let i = 0; i < 3; i++) limiter.fail("a");
  limiter.succeed("a");
  limiter.fail("a");
  expect(limiter.lockedFor("a")).toBe(0);
});

test("memory is bounded: expired clients go first, then the oldest", () => {
  let now = 0;
  const limiter = failureLimiter({ maxFailures: 1, windowMs: 100, maxClients: 3, now: () => now });
  limiter.fail("old");
  now = 50;
  limiter.fail("b");
  limiter.fail("c");
  now = 120; // "old" has expired
  limiter.fail("d");
  expect([limiter.lockedFor("b"), limiter.lockedFor("c"), limiter.lockedFor("d")]).toEqual([30, 30, 100]);
  limiter.fail("e"); // full of live entries: the oldest ("b") goes
  expect(limiter.lockedFor("b")).toBe(0);
  expect([limiter.lockedFor("c"), limiter.lockedFor("e")]).toEqual([30, 100]);
});
