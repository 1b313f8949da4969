/**
 * A bearer-token door for partners that may share one address (a NAT, a cloud's egress), as the
 * facilitator API's callers do. Wrong tokens are counted per (client, presented Authorization
 * digest): PAIR_FAILURES (5) of one wrong value within WINDOW_MS (15 min) lock out that value
 * from that client, while the right token from the same client still passes. Keyed by client
 * alone (src/hono-kit/failure-limiter.ts as the admin's door has it), one partner's stale token
 * locked every partner behind the same address out.
 *
 * Guessing stays bounded by a global ceiling: past GLOBAL_FAILURES (100) wrong values within a
 * window, across all clients, the door opens only to clients that presented the right token in
 * the window (partners at work), and everybody else hears 429 without a comparison until that
 * window ends. So strangers get at most 100 guesses per 15 minutes in all, however many
 * addresses they hold; a flood can keep a partner new in that window out, never one at work.
 * From the address of a partner at work, distinct guesses are slowed only by the protection
 * limit (the edge's requests per second). Against a token of at least 16 characters (the configuration's floor) that many guesses are
 * nothing. In memory, per instance, bounded to MAX_CLIENTS entries per table.
 */
import { createHash } from "node:crypto";
import * as Redacted from "effect/Redacted";
import type { DoorVerdict } from "./bearer-door.ts";
import { failureLimiter } from "./failure-limiter.ts";
import { sameSecret } from "./same-secret.ts";

export const PAIR_FAILURES = 5;
export const GLOBAL_FAILURES = 100;
export const WINDOW_MS = 15 * 60_000;
const MAX_CLIENTS = 10_000;
const EVERYONE = "*";
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export interface PartnerDoorOptions {
  readonly pairFailures?: number;
  readonly globalFailures?: number;
  readonly windowMs?: number;
  readonly now?: () => number;
}

/** The key of one (client, presented value) pair: the value's digest, never the value. */
const pairOf = (identity: string, authorization: string) =>
  `${identity} ${createHash("sha256").update(authorization).digest("hex")}`;

export const partnerDoor = (token: Redacted.Redacted<string>, options: PartnerDoorOptions = {}) => {
  const {
    pairFailures = PAIR_FAILURES,
    globalFailures = GLOBAL_FAILURES,
    windowMs = WINDOW_MS,
    now = Date.now,
  } = options;
  const secret = Redacted.value(token);
  const pairs = failureLimiter({ maxFailures: pairFailures, windowMs, maxClients: MAX_CLIENTS, now });
  const all = failureLimiter({ maxFailures: globalFailures, windowMs, maxClients: 1, now });
  // Clients that presented the right token, with when they last did.
  const proven = new Map<string, number>();
  const isProven = (identity: string) => {
    const at = proven.get(identity);
    return at !== undefined && now() - at < windowMs;
  };
  const prove = (identity: string) => {
    proven.delete(identity);
    if (proven.size >= MAX_CLIENTS) {
      const oldest = proven.keys().next().value;
      if (oldest !== undefined) proven.delete(oldest);
    }
    proven.set(identity, now());
  };
  return (authorization: string | undefined, identity: string): DoorVerdict => {
    if (authorization === undefined) return { kind: "missing" };
    const pair = pairOf(identity, authorization.trim());
    const pairLocked = pairs.lockedFor(pair);
    if (pairLocked > 0) return { kind: "locked", retryAfterMs: pairLocked };
    const allLocked = all.lockedFor(EVERYONE);
    if (allLocked > 0 && !isProven(identity)) return { kind: "locked", retryAfterMs: allLocked };
    const match = BEARER.exec(authorization);
    if (match !== null && sameSecret(match[1] ?? "", secret)) {
      prove(identity);
      return { kind: "ok" };
    }
    pairs.fail(pair);
    all.fail(EVERYONE);
    return { kind: "wrong" };
  };
};

export type PartnerDoor = ReturnType<typeof partnerDoor>;
