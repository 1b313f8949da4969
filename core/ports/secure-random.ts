/**
 * Unguessable names the payment protocols hand out (x402 payment ids and nonces), drawn from
 * a cryptographically secure generator. A port rather than Effect's `Random`, whose default is
 * a seeded generator: a runtime that forgot to provide a secure one would silently issue
 * guessable payment ids, where a missing port fails the build.
 */
import * as Context from "effect/Context";

export class SecureRandom extends Context.Service<
  SecureRandom,
  {
    /** `length` uniform base58 characters (about 5.86 bits each). */
    readonly base58: (length: number) => string;
  }
>()("core/SecureRandom") {}
