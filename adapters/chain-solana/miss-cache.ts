/**
 * Remembers, for a short time, which signatures the chain did not know. A client can send any
 * number of well-formed random signatures; without this each one costs two RPC calls
 * (getTransaction, then getSignatureStatuses), and repeating one costs them again. A miss is
 * kept for less than the widget's 5 s retry interval, so a transfer that lands in the
 * meantime is seen on the next try. Pending and found answers are never cached. Bounded:
 * past `maxEntries` the oldest misses are forgotten first. (The per-client and global limit on
 * lookups is core/payments/chain-lookup-budget.ts.)
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import type { ChainLookup, ChainReader } from "../../core/ports/chain-reader.ts";

export interface MissCacheOptions {
  readonly ttlMs: number;
  readonly maxEntries: number;
}

export const MISS_CACHE_DEFAULTS: MissCacheOptions = { ttlMs: 4000, maxEntries: 10_000 };

const MISSING: ChainLookup = { kind: "missing" };

/** `reader` with its misses cached. */
export const cachingMisses = (
  reader: ChainReader["Service"],
  options: MissCacheOptions = MISS_CACHE_DEFAULTS,
): ChainReader["Service"] => {
  // signature -> until when the miss holds; insertion order = age, for eviction.
  const misses = new Map<string, number>();
  const remember = (signature: string, until: number) => {
    misses.delete(signature);
    misses.set(signature, until);
    for (const oldest of misses.keys()) {
      if (misses.size <= options.maxEntries) break;
      misses.delete(oldest);
    }
  };
  const lookup = (signature: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const until = misses.get(signature);
      if (until !== undefined && until > now) return Effect.succeed(MISSING);
      if (until !== undefined) misses.delete(signature);
      return Effect.tap(reader.lookup(signature), (found) =>
        Effect.sync(() => {
          if (found.kind === "missing") remember(signature, now + options.ttlMs);
        }),
      );
    });
  return { lookup, ping: reader.ping };
};
