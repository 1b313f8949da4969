/** The one check both stores make on a grant before touching state. */
import * as Effect from "effect/Effect";

/** Refuses grants the payment rules can never produce: a bug upstream, not a client error. */
export const checkQueries = (queries: number) =>
  Number.isSafeInteger(queries) && queries > 0
    ? Effect.void
    : Effect.die(new RangeError(`queries must be a positive integer, got ${queries}`));

/** `checkQueries` of an optional grant (none: nothing to check). */
export const checkGrant = (grant: { readonly queries: number } | undefined) =>
  grant === undefined ? Effect.void : checkQueries(grant.queries);
