/**
 * Per client, a budget of payment submissions whose transaction the chain does not know: each
 * costs RPC calls (the miss cache only helps when the same signature comes back), so random
 * well-formed signatures could otherwise flood the RPC node at the protection limit's rate.
 * A real pending transfer is retried every 5 s by the widget: 12 a minute, well inside the
 * budget. Counted in memory per instance, in fixed one-minute windows; memory is bounded by
 * the clients active in one minute.
 */

export const UNKNOWN_SIGNATURES_PER_MINUTE = 30;

export const unknownSignatureBudget = (
  perMinute = UNKNOWN_SIGNATURES_PER_MINUTE,
  now: () => number = Date.now,
) => {
  let window = 0;
  let counts = new Map<string, number>();
  const current = () => {
    const minute = Math.floor(now() / 60_000);
    if (minute !== window) {
      window = minute;
      counts = new Map();
    }
    return counts;
  };
  return {
    /** Seconds until `identity` may submit again, or 0 when it may now. */
    retryAfter: (identity: string): number =>
      (current().get(identity) ?? 0) < perMinute
        ? 0
        : Math.max(1, Math.ceil(((window + 1) * 60_000 - now()) / 1000)),
    /** One more submission of `identity` that the chain did not know. */
    spend: (identity: string): void => {
      const counted = current();
      counted.set(identity, (counted.get(identity) ?? 0) + 1);
    },
  };
};

export type UnknownSignatureBudget = ReturnType<typeof unknownSignatureBudget>;
