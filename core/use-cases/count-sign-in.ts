/**
 * Counts a proven sign-in against its ceilings (core/sign-in/session-ceilings.ts): the wallet's
 * own sign-ins an hour (sign-ins-per-wallet, in its site's store) and, for a wallet holding no
 * credits, one of the creditless sign-ins every site and instance share a minute
 * (creditless-sign-ins, on the service's ceiling counter). Counted per site, a stranger with
 * fresh keypairs got the budget once on each hosted site.
 *
 * Order: the shared budget is admitted first and given back when the wallet's own count refuses
 * (or the nonce turns out used), so a refusal costs neither. Whether the wallet holds credits is
 * read just before, not in the same atomic step as the count: the two live in different stores
 * (a site's, the service's), and the only sign-in that can be judged on a read a moment old is
 * one racing a purchase or a spend of that very wallet, which has paid at least once; the bound
 * the budget gives on strangers' fresh wallets (used nonces, eviction churn) is unchanged.
 */
import * as Effect from "effect/Effect";
import { CeilingLimitsInForce } from "../ceilings/ceilings.ts";
import { windowCounter } from "../ceilings/counters.ts";
import { noteRefusal } from "../ceilings/refusals.ts";
import { CeilingCounter, type Counter } from "../ports/ceiling-counter.ts";
import { WalletCredits } from "../ports/wallet-credits-store.ts";
import { WalletSessions } from "../ports/wallet-sessions.ts";

/** A counted sign-in and the shared counters it took (to give back if it fails after all). */
export type SignInCount =
  | { readonly counted: false }
  | { readonly counted: true; readonly took: ReadonlyArray<Counter> };

/** Counts one sign-in of `wallet` at `now`, or refuses it with nothing counted. */
export const countSignIn = Effect.fn("countSignIn")(function* (wallet: string, now: number) {
  const counter = yield* CeilingCounter;
  const holds = yield* (yield* WalletCredits).holdsCredits(wallet);
  const took = holds
    ? []
    : [
        windowCounter(
          "creditless-sign-ins",
          "all",
          (yield* CeilingLimitsInForce)["creditless-sign-ins"],
          now,
        ),
      ];
  if (took.length > 0 && !(yield* counter.admit(took, now)).admitted) {
    yield* noteRefusal("creditless-sign-ins");
    return { counted: false } satisfies SignInCount;
  }
  if (yield* (yield* WalletSessions).countSignIn(wallet, now))
    return { counted: true, took } satisfies SignInCount;
  yield* counter.giveBack(took, now);
  return { counted: false } satisfies SignInCount;
});

/** Gives back the shared counters a sign-in took, when it failed after being counted. */
export const giveBackSignIn = (count: SignInCount, now: number) =>
  count.counted && count.took.length > 0
    ? Effect.flatMap(CeilingCounter, (counter) => counter.giveBack(count.took, now))
    : Effect.void;
