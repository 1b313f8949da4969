/**
 * The WalletCredits port on Redis: a wallet's credits are the quota hash of
 * `walletAccount(address)`, run by the same quota scripts (quota-lua.ts) with no free questions,
 * so the payment claims that credit that hash and the spends of the wallet are atomic against
 * each other on every instance.
 */
import { Effect } from "effect";
import type { Redis } from "ioredis";
import { walletAccount, walletLimits } from "../../core/payments/wallet-credits.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { WalletCredits } from "../../core/ports/wallet-credits.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import { newHoldId } from "../shared/random-ids.ts";
import type { KeyLayout } from "./keys.ts";
import { COMMIT, RELEASE, RESERVE } from "./quota-lua.ts";
import { luaScript, runScript } from "./redis-client.ts";
import { decodeReserve, decodeView } from "./replies.ts";
import { viewAt } from "./view-at.ts";

const SCRIPTS = { reserve: luaScript(RESERVE), commit: luaScript(COMMIT), release: luaScript(RELEASE) };

export const redisWalletCredits = (client: Redis, keys: KeyLayout, limits: QuotaLimits) => {
  const rules = walletLimits(limits);
  const keyOf = (wallet: string) => keys.quota(walletAccount(wallet));
  const run = (script: keyof typeof SCRIPTS, wallet: string, now: number, holdId: string) =>
    runScript(
      client,
      SCRIPTS[script],
      [keyOf(wallet)],
      [now, rules.freePerDay, rules.paidDailyCap, rules.holdTtlMs, holdId],
    );
  const readView = viewAt(client, keyOf, rules);
  return WalletCredits.of({
    view: (wallet, now) =>
      Effect.flatMap(
        Effect.promise(() => readView(wallet, now)),
        (view) => (view instanceof StoreUnavailable ? Effect.fail(view) : Effect.succeed(view)),
      ),
    reserve: Effect.fn("RedisWalletCredits.reserve")(function* (wallet, now) {
      const holdId = newHoldId();
      return yield* Effect.flatMap(run("reserve", wallet, now, holdId), decodeReserve(holdId));
    }),
    commit: Effect.fn("RedisWalletCredits.commit")(function* (wallet, holdId, now) {
      return yield* Effect.flatMap(run("commit", wallet, now, holdId), decodeView);
    }),
    release: Effect.fn("RedisWalletCredits.release")(function* (wallet, holdId, now) {
      return yield* Effect.flatMap(run("release", wallet, now, holdId), decodeView);
    }),
  });
};
