/**
 * Wrong secret tokens (the admin's, the x402 facilitator's), counted per client: after
 * `maxFailures` within `windowMs` the client is locked out (every request behind that token, even
 * with the right one, gets 429) until the window that began with its first failure ends. In
 * memory, per instance; bounded to `maxClients` entries (expired ones go first, then the oldest).
 * Shared by the console and the facilitator route, so both doors slow guessing alike.
 */
export interface FailureLimiterOptions {
  readonly maxFailures?: number;
  readonly windowMs?: number;
  readonly maxClients?: number;
  readonly now?: () => number;
}

export const failureLimiter = ({
  maxFailures = 5,
  windowMs = 15 * 60_000,
  maxClients = 10_000,
  now = Date.now,
}: FailureLimiterOptions = {}) => {
  const failures = new Map<string, { count: number; since: number }>();
  const current = (client: string) => {
    const entry = failures.get(client);
    if (entry !== undefined && now() - entry.since >= windowMs) {
      failures.delete(client);
      return undefined;
    }
    return entry;
  };
  const makeRoom = () => {
    for (const client of failures.keys()) current(client);
    for (const client of failures.keys()) {
      if (failures.size < maxClients) break;
      failures.delete(client);
    }
  };
  return {
    /** Milliseconds until `client` may try again; 0 when it is not locked out. */
    lockedFor: (client: string): number => {
      const entry = current(client);
      return entry !== undefined && entry.count >= maxFailures ? entry.since + windowMs - now() : 0;
    },
    /** Counts a wrong token. */
    fail: (client: string): void => {
      const entry = current(client);
      if (entry !== undefined) entry.count += 1;
      else {
        if (failures.size >= maxClients) makeRoom();
        failures.set(client, { count: 1, since: now() });
      }
    },
    /** A right token clears the client's failures. */
    succeed: (client: string): void => {
      failures.delete(client);
    },
  };
};

export type FailureLimiter = ReturnType<typeof failureLimiter>;
