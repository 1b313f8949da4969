/**
 * WalletCredits.reserveAsPayer on Redis: the identity's payer link, the wallet's hold through
 * it and, when the wallet refuses, the identity's own hold, in one script call, where the chat
 * asked for the link first (a round trip of its own) and then held.
 *
 * Every key the script touches is passed as a key. The wallet's quota hash and generation key
 * are named by the link, so the caller passes the wallet it last saw linked to the identity
 * (a hint); when the link names another wallet (or the caller had no hint), the script writes
 * nothing and answers that wallet, and the caller calls again with its keys. A link changes
 * only when its identity pays from another wallet, so the second call is rare: the first
 * request of a linked identity on an instance, or after a change.
 *
 * The hints are bounded: at most MAX_WALLET_HINTS identities (a few hundred kB of short
 * strings), all dropped at once when full. A client with many addresses can only make its own
 * next requests take the second call; a dropped or stale hint costs one round trip, never a
 * wrong hold, because the script checks the link it reads against the hint.
 */
import * as Effect from "effect/Effect";
import { walletAccount } from "../../../core/payments/wallet-credits.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { PayerHold } from "../../../core/ports/wallet-credits-store.ts";
import { type Hold, PaidDailyCapReached, QuotaExhausted, type QuotaLimits } from "../../../core/quota.ts";
import { newHoldId } from "../../shared/random-ids.ts";
import type { KeyLayout } from "../keys.ts";
import { PRELUDE } from "../quota/quota-lua-prelude.ts";
import { luaScript, runScript } from "../redis-client.ts";
import { LINK_PRELUDE } from "../sign-in/link-lua.ts";
import type { StoreClient } from "../store-client.ts";

/** Identities whose linked wallet is remembered; past it every hint is dropped. */
export const MAX_WALLET_HINTS = 4096;
/** Script calls of one hold at most: the hinted one, and two more after a changed link. */
const MAX_CALLS = 3;

/**
 * KEYS = [identity's quota, link, and with a hinted wallet: its quota, its generation],
 * ARGV = [now, freePerDay, paidDailyCap, holdTtlMs, holdId, hinted wallet or ''].
 * {0, onWallet (0|1), linked wallet or '', bucket, day, expiresAt} | {1, resetAt} (QuotaExhausted)
 * | {2, resetAt} (PaidDailyCapReached) | {3, wallet}: call again with that wallet's keys.
 * The wallet's rules: no free questions, the same cap (core/payments/wallet-credits.ts); the
 * refusal as core fallbackRefusal: the wallet's cap when the identity has nothing left either.
 */
const PAYER_HOLD = luaScript(`${PRELUDE}${LINK_PRELUDE}
local id = ARGV[5]
local named = redis.call('HGET', KEYS[2], 'w')
if named and named ~= ARGV[6] then return { 3, named } end
local wallet = ''
local walletRefused = 0
if named then
  local l = link_load(KEYS[2], KEYS[4], named)
  if l then
    wallet = named
    local w = load(KEYS[3], 0)
    link_clamp(l, w)
    -- A refusal writes nothing of the link (as the core rule, which keeps no refused state).
    if l.a - l.count <= 0 then walletRefused = 1
    else
      local bucket, refused = pick_bucket(w)
      if bucket == nil then walletRefused = refused
      else
        local h = { bucket = bucket, day = w.day, exp = now + holdTtl }
        put(w, id, h)
        l.holds[id] = h.exp; l.count = l.count + 1; l.added[id] = h.exp
        save(w); link_save(KEYS[2], l)
        return { 0, 1, wallet, h.bucket, h.day, h.exp }
      end
    end
    save(w)
  end
end
local s = load()
local bucket, refused = pick_bucket(s)
if bucket == nil then
  save(s)
  if walletRefused == 2 and refused == 1 then refused = 2 end
  return { refused, (today + 1) * DAY }
end
local h = { bucket = bucket, day = s.day, exp = now + holdTtl }
put(s, id, h)
save(s)
return { 0, 0, wallet, h.bucket, h.day, h.exp }
`);

type Reply =
  | { readonly kind: "held"; readonly held: PayerHold }
  | { readonly kind: "elsewhere"; readonly wallet: string };

const malformed = new StoreUnavailable({ reason: "redis returned an unexpected reply" });

const decode = (
  holdId: string,
  reply: unknown,
): Effect.Effect<Reply, QuotaExhausted | PaidDailyCapReached | StoreUnavailable> => {
  if (!Array.isArray(reply)) return Effect.fail(malformed);
  const [status, second, wallet, bucket, day, expiresAt] = reply as unknown[];
  if (status === 1 && typeof second === "number") return Effect.fail(new QuotaExhausted({ resetAt: second }));
  if (status === 2 && typeof second === "number")
    return Effect.fail(new PaidDailyCapReached({ resetAt: second }));
  if (status === 3 && typeof second === "string" && second !== "")
    return Effect.succeed({ kind: "elsewhere", wallet: second });
  if (
    status !== 0 ||
    (second !== 0 && second !== 1) ||
    typeof wallet !== "string" ||
    (bucket !== "f" && bucket !== "p") ||
    !Number.isSafeInteger(day) ||
    !Number.isSafeInteger(expiresAt)
  )
    return Effect.fail(malformed);
  const hold: Hold = {
    id: holdId,
    bucket: bucket === "f" ? "free" : "paid",
    day: day as number,
    expiresAt: expiresAt as number,
  };
  return Effect.succeed({
    kind: "held",
    held: { hold, wallet: wallet === "" ? undefined : wallet, onWallet: second === 1 },
  });
};

export const redisReserveAsPayer = (client: StoreClient, keys: KeyLayout, limits: QuotaLimits) => {
  const hints = new Map<string, string>();
  const remember = (identity: string, wallet: string) => {
    if (hints.size >= MAX_WALLET_HINTS) hints.clear();
    hints.set(identity, wallet);
  };
  const attempt = (identity: string, now: number, holdId: string, hint: string | undefined) => {
    const walletKeys =
      hint === undefined ? [] : [keys.quota(walletAccount(hint)), keys.sessionGeneration(hint)];
    return Effect.flatMap(
      runScript(
        client,
        PAYER_HOLD,
        [keys.quota(identity), keys.payerLink(identity), ...walletKeys],
        [now, limits.freePerDay, limits.paidDailyCap, limits.holdTtlMs, holdId, hint ?? ""],
      ),
      (reply) => decode(holdId, reply),
    );
  };
  return Effect.fn("RedisWalletCredits.reserveAsPayer")(function* (identity: string, now: number) {
    const holdId = newHoldId();
    let hint = hints.get(identity);
    // A link that changes again between two calls (its identity paying from wallet after
    // wallet) is followed a few times, then the request fails as the store's (nothing held).
    for (let call = 0; call < MAX_CALLS; call++) {
      const reply = yield* attempt(identity, now, holdId, hint);
      if (reply.kind === "held") return reply.held;
      hint = reply.wallet;
      remember(identity, hint);
    }
    return yield* Effect.fail(new StoreUnavailable({ reason: "the payer link kept changing during a hold" }));
  });
};
