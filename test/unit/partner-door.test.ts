/**
 * The facilitator's door (src/hono-kit/partner-door.ts), on its own clock: wrong tokens lock out
 * only the (client, value) pair that failed; past the global ceiling only clients that proved
 * the token in the window get in, so strangers' guesses stay bounded however many addresses
 * they use; everything opens again when the window ends.
 */
import { describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import { GLOBAL_FAILURES, PAIR_FAILURES, partnerDoor, WINDOW_MS } from "../../src/hono-kit/partner-door.ts";

const TOKEN = "facilitator-token-0123456789";
const RIGHT = `Bearer ${TOKEN}`;
const door = () => {
  const clock = { now: 1_700_000_000_000 };
  return { clock, check: partnerDoor(Redacted.make(TOKEN), { now: () => clock.now }) };
};
const kinds = (
  check: ReturnType<typeof door>["check"],
  authorization: string,
  client: string,
  times: number,
) => Array.from({ length: times }, () => check(authorization, client).kind);

describe("the partner door", () => {
  test("five of one wrong value lock that value out from that client; the right token and other clients pass", () => {
    const { check } = door();
    expect(kinds(check, "Bearer stale-token-0123456789", "10.0.0.1", PAIR_FAILURES + 1)).toEqual([
      ...Array(PAIR_FAILURES).fill("wrong"),
      "locked",
    ]);
    expect(check(RIGHT, "10.0.0.1").kind).toBe("ok");
    expect(check("Bearer stale-token-0123456789", "10.0.0.2").kind).toBe("wrong");
    expect(check("Bearer stale-token-0123456789", "10.0.0.1").kind).toBe("locked");
    // The right token in another spelling is the right token: never counted, never locked.
    expect(check(`bearer  ${TOKEN}`, "10.0.0.1").kind).toBe("ok");
    expect(check(undefined, "10.0.0.1").kind).toBe("missing");
  });

  test("past the global ceiling, strangers are refused uncompared, even with the right token; a partner at work is not", () => {
    const { clock, check } = door();
    expect(check(RIGHT, "192.0.2.1").kind).toBe("ok");
    // Guesses from many addresses, each new: only the global ceiling stops them.
    const guesses = Array.from(
      { length: GLOBAL_FAILURES + 20 },
      (_, i) => check(`Bearer guess-${i}-0123456789abcdef`, `198.51.100.${i % 250}`).kind,
    );
    expect(guesses.filter((kind) => kind === "wrong")).toHaveLength(GLOBAL_FAILURES);
    expect(guesses.filter((kind) => kind === "locked")).toHaveLength(20);
    // A stranger with the right token waits for the window (no oracle for new addresses)...
    const stranger = check(RIGHT, "203.0.113.9");
    expect(stranger).toEqual({ kind: "locked", retryAfterMs: WINDOW_MS });
    // ...the partner that proved the token keeps working.
    expect(check(RIGHT, "192.0.2.1").kind).toBe("ok");
    clock.now += WINDOW_MS;
    expect(check(RIGHT, "203.0.113.9").kind).toBe("ok");
  });
});
