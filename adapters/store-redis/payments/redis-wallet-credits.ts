/**
 * The WalletCredits port on Redis: a wallet's credits are the quota hash of
 * `walletAccount(address)`, run by the same quota scripts (quota-lua.ts) with no free questions,
 * so the payment claims that credit that hash and the spends of the wallet are atomic against
 * each other on every instance. A spend through a payer link runs one script over the wallet's
 * hash, the link and the wallet's session generation (link-lua.ts); a hold of a client without
 * a session reads its link in the same call (payer-hold.ts), and so does its view (payer-view.ts).
 */
import * as Effect from "effect/Effect";
import { walletAccount, walletLimits } from "../../../core/payments/wallet-credits.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { WalletCredits } from "../../../core/ports/wallet-credits-store.ts";
import type { QuotaLimits } from "../../../core/quota.ts";
import { newHoldId } from "../../shared/random-ids.ts";
import type { KeyLayout } from "../keys.ts";
import { COMMIT, RELEASE, RESERVE } from "../quota/quota-lua.ts";
import { viewAt } from "../quota/view-at.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import { decodeReserve, decodeView } from "../replies.ts";
import { RESERVE_THROUGH_LINK, SETTLE_THROUGH_LINK, VIEW_THROUGH_LINK } from "../sign-in/link-lua.ts";
import type { StoreClient } from "../store-client.ts";
import { redisReserveAsPayer } from "./payer-hold.ts";
import { redisViewAsPayer } from "./payer-view.ts";

const SCRIPTS = { reserve: luaScript(RESERVE), commit: luaScript(COMMIT), release: luaScript(RELEASE) };
const LINKED = {
  reserve: luaScript(RESERVE_THROUGH_LINK),
  settle: luaScript(SETTLE_THROUGH_LINK),
  view: luaScript(VIEW_THROUGH_LINK),
};

export const redisWalletCredits = (client: StoreClient, keys: KeyLayout, limits: QuotaLimits) => {
  const rules = walletLimits(limits);
  const keyOf = (wallet: string) => keys.quota(walletAccount(wallet));
  const run = (script: keyof typeof SCRIPTS, wallet: string, now: number, holdId: string) =>
    runScript(
      client,
      SCRIPTS[script],
      [keyOf(wallet)],
      [now, rules.freePerDay, rules.paidDailyCap, rules.holdTtlMs, holdId],
    );
  const throughLink = (
    script: keyof typeof LINKED,
    wallet: string,
    through: string,
    now: number,
    holdId: string,
    outcome: "commit" | "release" | "" = "",
  ) =>
    runScript(
      client,
      LINKED[script],
      [keyOf(wallet), keys.payerLink(through), keys.sessionGeneration(wallet)],
      [now, rules.freePerDay, rules.paidDailyCap, rules.holdTtlMs, holdId, wallet, outcome],
    );
  const readView = viewAt(client, keyOf, rules);
  return WalletCredits.of({
    // The field the quota scripts keep a wallet's paid credits in (quota-lua.ts).
    holdsCredits: (wallet) =>
      Effect.map(
        runCommand(() => client.hget(keyOf(wallet), "credits")),
        (credits) => Number(credits ?? "0") > 0,
      ),
    view: (wallet, now, through) =>
      through !== undefined
        ? Effect.flatMap(throughLink("view", wallet, through, now, ""), decodeView)
        : Effect.flatMap(
            Effect.promise(() => readView(wallet, now)),
            (view) => (view instanceof StoreUnavailable ? Effect.fail(view) : Effect.succeed(view)),
          ),
    reserve: Effect.fn("RedisWalletCredits.reserve")(function* (wallet, now, through) {
      const holdId = newHoldId();
      const reply =
        through === undefined
          ? run("reserve", wallet, now, holdId)
          : throughLink("reserve", wallet, through, now, holdId);
      return yield* Effect.flatMap(reply, decodeReserve(holdId));
    }),
    viewAsPayer: redisViewAsPayer(client, keys, limits),
    reserveAsPayer: redisReserveAsPayer(client, keys, limits),
    commit: Effect.fn("RedisWalletCredits.commit")(function* (wallet, holdId, now, through) {
      const reply =
        through === undefined
          ? run("commit", wallet, now, holdId)
          : throughLink("settle", wallet, through, now, holdId, "commit");
      return yield* Effect.flatMap(reply, decodeView);
    }),
    release: Effect.fn("RedisWalletCredits.release")(function* (wallet, holdId, now, through) {
      const reply =
        through === undefined
          ? run("release", wallet, now, holdId)
          : throughLink("settle", wallet, through, now, holdId, "release");
      return yield* Effect.flatMap(reply, decodeView);
    }),
  });
};
