/**
 * Which account a question is charged to. A client that holds a wallet's session (or signed in
 * with the wallet) spends the wallet's credits first, then the free questions of its identity
 * (and any credits its identity held from before credits followed the payer); a client without
 * one spends its identity's quota alone. The view it sees adds both (wallet-credits.ts). A
 * client that reaches the wallet through its identity's payer link (it paid from this address
 * and sends no session) spends no more of it than was bought from that identity
 * (core/payments/link-allowance.ts). Such a client's wallet need not be known before its hold:
 * the store reads the link in the same step (WalletCredits.reserveAsPayer), one question fewer.
 *
 * A free question is also one of the client's free questions across every site
 * (free-questions-across-sites, core/ceilings/ceilings.ts): each site's store counts its own, so
 * without it one address would take the free answers of every hosted site, each on the service's
 * language-model key. It is counted when the free hold is made and given back when the hold is
 * (a declined question stays free); past it the client holds a paid question or meets the usual
 * 402. It counts the hold's id, not a number, so a release given twice, or a hold never counted,
 * gives nothing back; a commit marks the id kept (CeilingCounter.keep) before the site counts the
 * question, so a release after it gives nothing back either. Its limit is never below the largest free questions of the service's sites
 * (LargestSiteFreeQuestions), so it never cuts one site's own. A hold that lapses unsettled (the
 * process died) keeps its count until the day turns.
 *
 * Declines: a declined question is given back, yet with a language model its decline may follow a
 * whole generation; declines-per-client counts them (given back or not) and, once full, refuses
 * the client's questions before anything is retrieved or generated (TooManyDeclines, 429), until
 * the UTC day turns. The check rides on the cross-site admit that follows the site's hold (one
 * store call for both; the hold is given back at once when it refuses), and a client the site
 * refuses is checked before it is offered a payment that would not help.
 */
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import {
  AllSitesFreeQuestions,
  CeilingLimitsInForce,
  freeAcrossSitesLimit,
  LargestSiteFreeQuestions,
} from "../ceilings/ceilings.ts";
import { checkOnly, windowCounter, windowMembersCounter } from "../ceilings/counters.ts";
import { noteRefusal } from "../ceilings/refusals.ts";
import { combinedView, fallbackRefusal } from "../payments/wallet-credits.ts";
import { CeilingCounter, type Counter } from "../ports/ceiling-counter.ts";
import { QuotaStore } from "../ports/quota-store.ts";
import { WalletCredits } from "../ports/wallet-credits-store.ts";
import type { Hold, PaidDailyCapReached, QuotaExhausted, QuotaView } from "../quota.ts";
import { DAY_MS } from "../time.ts";

/** Who is asking: the client identity (an IP), and the wallet whose credits it may spend. */
export interface Spender {
  readonly identity: string;
  readonly wallet?: string | undefined;
  /**
   * The wallet is reached through the identity's payer link (no session, no signature); with no
   * wallet named, the link's wallet (if any) is the one its hold finds.
   */
  readonly throughLink?: boolean | undefined;
}

/** The identity whose payer link caps the spend, if the spender goes through one. */
const linkOf = (spender: Spender): string | undefined =>
  spender.throughLink === true ? spender.identity : undefined;

/** A held query, where it is held, and the wallet the spender spends (its link's, once found). */
export interface HeldQuery {
  readonly hold: Hold;
  readonly onWallet: boolean;
  readonly wallet: string | undefined;
  /** Why the wallet refused before the identity's hold was taken: still the reason if that one fails. */
  readonly walletRefused?: QuotaExhausted | PaidDailyCapReached | undefined;
}

const reserveOnIdentity = (quota: QuotaStore["Service"], spender: Spender, now: number, paidOnly = false) =>
  Effect.map(
    quota.reserve(spender.identity, now, paidOnly),
    ({ hold }): HeldQuery => ({ hold, onWallet: false, wallet: spender.wallet }),
  );

/** The client has had its declined questions of the day (declines-per-client): refused until `resetAt`. */
export class TooManyDeclines extends Schema.TaggedError<TooManyDeclines>()("TooManyDeclines", {
  resetAt: Schema.Number,
}) {}

/** The counter of the identity's free questions on every site, on the UTC day of `at`: one member a hold. */
const acrossSites = (identity: string, holdId: string, at: number) =>
  Effect.gen(function* () {
    const limits = yield* CeilingLimitsInForce;
    const limit = freeAcrossSitesLimit(limits, (yield* LargestSiteFreeQuestions)());
    return windowMembersCounter("free-questions-across-sites", identity, holdId, limit, at);
  });

/** The counter of the identity's declined questions on the UTC day of `at`. */
const declines = (identity: string, at: number) =>
  Effect.map(CeilingLimitsInForce, (limits) =>
    windowCounter("declines-per-client", identity, limits["declines-per-client"], at),
  );

/** The client's declines of the day, checked for room (a check: counts nothing). */
const declinesLeft = (identity: string, now: number) => Effect.map(declines(identity, now), checkOnly);

const tooManyDeclines = (check: Counter, now: number) =>
  Effect.andThen(
    noteRefusal("declines-per-client"),
    Effect.fail(new TooManyDeclines({ resetAt: check.freesAt ?? now })),
  );

/** Refuses a question of a client whose declines of the day are spent. */
const checkDeclines = (identity: string, now: number) =>
  Effect.gen(function* () {
    const check = yield* declinesLeft(identity, now);
    const verdict = yield* (yield* CeilingCounter).admit([check], now);
    if (!verdict.admitted) return yield* tooManyDeclines(check, now);
  });

/** Counts one declined question of the identity (it is given back all the same). */
const countDecline = (identity: string, now: number) =>
  Effect.gen(function* () {
    const counter = yield* declines(identity, now);
    yield* (yield* CeilingCounter).admit([counter], now);
  });

/**
 * Gives a declined question back, then counts it among the client's declines. Given back first, so
 * a store failing on the count leaves nothing held; and that failure does not turn a decline the
 * client already has (free, and perhaps streamed) into an error: the next question's check meets
 * the same store.
 */
export const settleDeclined = (asked: Spender, held: HeldQuery, now: number) =>
  Effect.tap(settleQuery(asked, held, "release", now), () =>
    Effect.ignore(countDecline(asked.identity, now)),
  );

/** A free question on the identity's quota (not a wallet's credits): counted across sites too. */
const isFree = (held: HeldQuery) => !held.onWallet && held.hold.bucket === "free";

/**
 * Holds one query: the wallet's credits first, then the identity's quota; a free one only while
 * the identity has free questions left across sites, else a paid one if it holds any.
 */
export const reserveQuery = (spender: Spender, now: number) =>
  Effect.gen(function* () {
    const held: HeldQuery = yield* reserveOnSite(spender, now).pipe(
      // Nothing left on the site: a client past its declines is told so, not offered a payment.
      Effect.catchTag("QuotaExhausted", (refused) =>
        Effect.andThen(checkDeclines(spender.identity, now), Effect.fail(refused)),
      ),
    );
    const counter = yield* CeilingCounter;
    const check = yield* declinesLeft(spender.identity, now);
    // The declines' check and a free question's count across sites, in one store call.
    const counters = isFree(held)
      ? [check, yield* acrossSites(spender.identity, held.hold.id, now)]
      : [check];
    // A store that fails here must not leave the hold open for its whole lifetime.
    const verdict = yield* counter
      .admit(counters, now)
      .pipe(Effect.onError(() => Effect.ignore(releaseOnSite(spender, held, now))));
    if (verdict.admitted) return held;
    // Nothing was counted: only the site's hold is given back.
    yield* releaseOnSite(spender, held, now);
    if (verdict.refusedBy.ceiling === "declines-per-client") return yield* tooManyDeclines(check, now);
    yield* noteRefusal("free-questions-across-sites");
    const quota = yield* QuotaStore;
    const refusedOnWallet = held.walletRefused;
    return yield* reserveOnIdentity(quota, spender, now, true).pipe(
      // A wallet past its daily cap is told so (429), not offered a payment.
      Effect.catchTag("QuotaExhausted", (refused) =>
        Effect.fail(refusedOnWallet === undefined ? refused : fallbackRefusal(refusedOnWallet, refused)),
      ),
    );
  });

/**
 * The free question counted across sites, when its hold is settled: given back on a release, kept
 * on a commit (before the site counts it, so no release after a commit can give it back).
 */
const settleAcrossSites = (asked: Spender, held: HeldQuery, outcome: "commit" | "release", now: number) =>
  Effect.gen(function* () {
    if (!isFree(held)) return;
    const counter = yield* CeilingCounter;
    // The day the hold was made in names the counter it took; the hold's id is its member there.
    const heldAt = held.hold.day * DAY_MS;
    const across = yield* acrossSites(asked.identity, held.hold.id, heldAt);
    yield* outcome === "release" ? counter.giveBack([across], now) : counter.keep([across], now);
  });

/** Gives the hold back where it is held (nothing counted across sites yet). */
const releaseOnSite = (spender: Spender, held: HeldQuery, now: number) =>
  Effect.gen(function* () {
    if (held.onWallet && held.wallet !== undefined) {
      yield* (yield* WalletCredits).release(held.wallet, held.hold.id, now, linkOf(spender));
      return;
    }
    yield* (yield* QuotaStore).release(spender.identity, held.hold.id, now);
  });

/** Holds one query on this site's store: the wallet's credits first, then the identity's quota. */
const reserveOnSite = (spender: Spender, now: number) =>
  Effect.gen(function* () {
    const quota = yield* QuotaStore;
    const { wallet } = spender;
    if (wallet === undefined && spender.throughLink !== true)
      return yield* reserveOnIdentity(quota, spender, now);
    const wallets = yield* WalletCredits;
    // The link and both holds in one store step: the wallet is the link's, if it has one.
    if (wallet === undefined) return yield* wallets.reserveAsPayer(spender.identity, now);
    return yield* wallets.reserve(wallet, now, linkOf(spender)).pipe(
      Effect.map(({ hold }): HeldQuery => ({ hold, onWallet: true, wallet })),
      Effect.catchTags({
        QuotaExhausted: (refused) => fallBack(quota, spender, now, refused),
        // The wallet's daily cap is reached: the identity's questions may still answer, else the cap is the reason.
        PaidDailyCapReached: (refused) => fallBack(quota, spender, now, refused),
      }),
    );
  });

/** The identity's own hold after the wallet refused; refused as fallbackRefusal decides. */
const fallBack = (
  quota: QuotaStore["Service"],
  spender: Spender,
  now: number,
  onWallet: QuotaExhausted | PaidDailyCapReached,
) =>
  reserveOnIdentity(quota, spender, now).pipe(
    Effect.map((held): HeldQuery => ({ ...held, walletRefused: onWallet })),
    Effect.catchTags({
      QuotaExhausted: (refused) => Effect.fail(fallbackRefusal(onWallet, refused)),
      PaidDailyCapReached: (refused) => Effect.fail(fallbackRefusal(onWallet, refused)),
    }),
  );

/**
 * `view` with its free questions no more than the identity has left across sites (a read:
 * nothing counted), so a status never shows a free question the cross-site cap would refuse.
 */
export const freeAcrossSites = (identity: string, view: QuotaView, now: number) =>
  view.free === 0
    ? Effect.succeed(view)
    : Effect.flatMap(crossSiteCapMayBind, (mayBind) =>
        mayBind ? readAcrossSites(identity, view, now) : Effect.succeed(view),
      );

/**
 * Whether the cap across sites can refuse anything: not when the sites together give no more
 * free questions than it (one site, for one). Decided before any counter is named, so a status
 * of a single-site service pays nothing for it.
 */
const crossSiteCapMayBind = Effect.flatMap(AllSitesFreeQuestions, (total) =>
  Effect.flatMap(LargestSiteFreeQuestions, (largest) =>
    Effect.map(CeilingLimitsInForce, (limits) => total() > freeAcrossSitesLimit(limits, largest())),
  ),
);

const readAcrossSites = (identity: string, view: QuotaView, now: number) =>
  Effect.gen(function* () {
    const counter = yield* acrossSites(identity, "", now);
    const { limit } = counter;
    const used = yield* (yield* CeilingCounter).used(counter, now);
    const free = Math.min(view.free, Math.max(0, limit - used));
    if (free === view.free) return view;
    return {
      ...view,
      free,
      remaining: free + view.paid,
      requiresPayment: free === 0 && view.paid === 0,
    } satisfies QuotaView;
  });

/** What the spender sees: its identity's view, plus its wallet's paid questions. */
export const spenderView = (spender: Spender, now: number) =>
  Effect.gen(function* () {
    const quota = yield* QuotaStore;
    const client = yield* quota.view(spender.identity, now);
    if (spender.wallet === undefined) return client;
    const wallets = yield* WalletCredits;
    return combinedView(client, yield* wallets.view(spender.wallet, now, linkOf(spender)));
  });

/** Commits or releases a held query where it is held; the spender's view after (through the wallet its hold found). */
export const settleQuery = (
  asked: Spender,
  held: HeldQuery,
  outcome: "commit" | "release",
  now: number,
): Effect.Effect<
  QuotaView,
  Effect.Error<ReturnType<typeof spenderView>>,
  QuotaStore | WalletCredits | CeilingCounter
> =>
  Effect.gen(function* () {
    yield* settleAcrossSites(asked, held, outcome, now);
    const spender: Spender = { ...asked, wallet: held.wallet };
    if (held.onWallet && spender.wallet !== undefined) {
      const wallets = yield* WalletCredits;
      // The settle answers the wallet's view after it: only the identity's is read again.
      const wallet = yield* wallets[outcome](spender.wallet, held.hold.id, now, linkOf(spender));
      return combinedView(yield* (yield* QuotaStore).view(spender.identity, now), wallet);
    }
    const quota = yield* QuotaStore;
    const view = yield* quota[outcome](spender.identity, held.hold.id, now);
    if (spender.wallet === undefined) return view;
    const wallets = yield* WalletCredits;
    return combinedView(view, yield* wallets.view(spender.wallet, now, linkOf(spender)));
  });
