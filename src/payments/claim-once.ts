/**
 * POST /api/payment answers a resend (the widget's retry after a dropped response) as it answered
 * the claim: the same signature from the same client gets the same grant back, where any other
 * claim of a used signature stays "already used". The grant is kept in the paid results every
 * instance shares (core/ports/paid-results.ts) under the signature, with a digest of the client
 * identity that claimed it, after the claim succeeded and never before, so each kept grant was
 * bought with at least the smallest price, under that store's own bounds (MAX_PAID_RESULTS,
 * PAID_RESULT_RETENTION_MS: a day, as long as a claim's own record). A resend gets the grant
 * WITHOUT a session: "the same client" is only an address, which a neighbour behind the same NAT
 * shares and the signature is public on chain, so a session here would hand that neighbour the
 * whole wallet. The resender keeps what it bought from that address (the payer link's
 * allowance, core/payments/link-allowance.ts), as any client without a session does, and a wallet
 * holder signs in for the rest.
 */
import { Clock, Effect } from "effect";
import { PAID_RESULT_RETENTION_MS } from "../../core/payments/payment-identifier.ts";
import { PaidResults } from "../../core/ports/paid-results.ts";

/** What a grant's response said, without its session. */
export interface KeptGrant {
  readonly body: Readonly<Record<string, unknown>>;
}

const keyOf = (signature: string) => `claim:${signature}`;

const hex = async (text: string) =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");

/** Keeps the grant of `signature` to `identity`; a store that fails only loses the convenience. */
export const keepGrant = (signature: string, identity: string, grant: KeptGrant) =>
  Effect.ignore(
    Effect.gen(function* () {
      const results = yield* PaidResults;
      const digest = yield* Effect.promise(() => hex(identity));
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
 * The grant `identity` got for `signature`, without a session (see the header); undefined when
 * this client never claimed it, or it is no longer kept.
 */
export const grantOnResend = (signature: string, identity: string) =>
  Effect.gen(function* () {
    const results = yield* PaidResults;
    const now = yield* Clock.currentTimeMillis;
    const kept = yield* results.find(keyOf(signature), now);
    if (
      kept?.body === undefined ||
      now - kept.keptAt >= PAID_RESULT_RETENTION_MS ||
      kept.digest !== (yield* Effect.promise(() => hex(identity)))
    )
      return undefined;
    return JSON.parse(kept.body) as Record<string, unknown>;
  });
