/**
 * A bearer-token door with a failure limiter (the facilitator's, the metrics'): the right token
 * passes and clears the client's failures, a wrong one is counted toward a lock-out, none is not
 * a guess. The caller renders the verdict and logs it, in its own words and counters.
 */
import * as Redacted from "effect/Redacted";
import type { FailureLimiter } from "./failure-limiter.ts";
import { sameSecret } from "./same-secret.ts";

export type DoorVerdict =
  | { readonly kind: "ok" }
  | { readonly kind: "missing" }
  | { readonly kind: "wrong" }
  | { readonly kind: "locked"; readonly retryAfterMs: number };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export const bearerDoor = (token: Redacted.Redacted<string>, limiter: FailureLimiter) => {
  const secret = Redacted.value(token);
  return (authorization: string | undefined, identity: string): DoorVerdict => {
    const retryAfterMs = limiter.lockedFor(identity);
    if (retryAfterMs > 0) return { kind: "locked", retryAfterMs };
    if (authorization === undefined) return { kind: "missing" };
    const match = BEARER.exec(authorization);
    if (match !== null && sameSecret(match[1] ?? "", secret)) {
      limiter.succeed(identity);
      return { kind: "ok" };
    }
    limiter.fail(identity);
    return { kind: "wrong" };
  };
};

/** Retry-After in whole seconds, at least 1. */
export const retryAfterSeconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));
