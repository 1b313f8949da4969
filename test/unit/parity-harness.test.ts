/**
 * The parity suite's own harness (test/support/store-pair.ts, redis-server.ts): a crash is never
 * "equal" (a plain Error serialises to {}, so two different crashes once compared equal), and a
 * suite that needs redis-server fails in CI without it, is skipped elsewhere, never passed.
 */
import { describe, expect, test } from "bun:test";
import * as Exit from "effect/Exit";
import { AlreadyClaimed } from "../../core/ports/payment-store.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { redisVerdict } from "../support/redis-server.ts";
import { settleExit } from "../support/store-pair.ts";

const names = new Map<string, string>();

describe("the parity harness", () => {
  test("two different crashes settle as crashes that name them, never as equal errors", () => {
    const a = settleExit(Exit.die(new Error("boom in Lua")), names);
    const b = settleExit(Exit.fail(new Error("another")), names);
    expect("crash" in a && a.crash.startsWith("Error: boom in Lua")).toBe(true);
    expect("crash" in b && b.crash.startsWith("Error: another")).toBe(true);
    expect(Bun.deepEquals(a, b)).toBe(false);
    // An outage is no expected answer of a store either.
    const down = settleExit(Exit.fail(new StoreUnavailable({ reason: "unreachable" })), names);
    expect("crash" in down).toBe(true);
  });

  test("a port's expected failure settles as its tag and fields", () => {
    expect(settleExit(Exit.fail(new AlreadyClaimed({})), names)).toEqual({
      error: { _tag: "AlreadyClaimed" },
    });
  });

  test("without redis-server: fail in CI, skip elsewhere; with it: run", () => {
    expect(redisVerdict(false, "1")).toBe("fail");
    expect(redisVerdict(false, "true")).toBe("fail");
    expect(redisVerdict(false, undefined)).toBe("skip");
    expect(redisVerdict(false, "")).toBe("skip");
    expect(redisVerdict(true, "1")).toBe("run");
  });
});
