/**
 * POST /api/payment answers a resend (the widget's retry after a dropped response) as it answered
 * the claim, when the claim named itself with an `Idempotency-Key` (a random secret the widget
 * makes per claim and sends again on each retry): the same signature with the same key gets the
 * same grant back, where any other claim of a used signature stays "already used" (a claim
 * without a key, the spec's, is answered as the spec says). The grant is kept in the paid results
 * every instance shares (core/ports/paid-results.ts) under the signature, with a digest of the
 * key, after the claim succeeded and never before, so each kept grant was
 * bought with at least the smallest price, under that store's own bounds (MAX_PAID_RESULTS,
 * PAID_RESULT_RETENTION_MS: a day, as long as a claim's own record). The key, not the address,
 * says "the same client": an address is shared by neighbours behind a NAT and the signature is
 * public on chain. A resend gets the grant without a session (the store holds no token): the
 * resender spends what it bought from that address (the payer link's allowance,
 * core/payments/link-allowance.ts), and signs in with the wallet for the rest.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { PAID_RESULT_RETENTION_MS } from "../../core/payments/payment-identifier.ts";
import { PaidResults } from "../../core/ports/paid-results.ts";
import { sha256Hex as hex } from "./sha256-hex.ts";

/** What a grant's response said, without its session. */
export interface KeptGrant {
  readonly body: Readonly<Record<string, unknown>>;
}

const keyOf = (signature: string) => `claim:${signature}`;

/** The Idempotency-Key a claim may carry: 16 to 128 letters, digits, `-` and `_`. */
export const isClaimKey = (key: string | undefined): key is string =>
  key !== undefined && /^[A-Za-z0-9_-]{16,128}$/.test(key);

/** Keeps the grant of `signature` under the claim's key; a store that fails only loses the convenience. */
export const keepGrant = (signature: string, key: string, grant: KeptGrant) =>
  Effect.ignore(
    Effect.gen(function* () {
      const results = yield* PaidResults;
      const digest = yield* Effect.promise(() => hex(key));
      const now = yield* Clock.currentTimeMillis;
      yield* results.keep(
        keyOf(signature),
        {
          digest,
          status: 200,
          headers: {},
          body: JSON.stringify(grant.body),
          keptAt: now,
        },
        now,
      );
    }),
  );

/**
 * The grant the claim of `signature` with `key` got, without a session (see the header);
 * undefined when no claim with that key got one, or it is no longer kept.
 */
export const grantOnResend = (signature: string, key: string) =>
  Effect.gen(function* () {
    const results = yield* PaidResults;
    const now = yield* Clock.currentTimeMillis;
    const kept = yield* results.find(keyOf(signature), now);
    if (
      kept?.body === undefined ||
      now - kept.keptAt >= PAID_RESULT_RETENTION_MS ||
      kept.digest !== (yield* Effect.promise(() => hex(key)))
    )
      return undefined;
    return JSON.parse(kept.body) as Record<string, unknown>;
  });
