/**
 * Key layout of the Redis store (README documents it). The identity or signature always
 * ends the key, so two different identities can never map to one key. On a Redis Cluster each
 * name below is preceded by its hash tag (`keyLayout`): `{docs-chat:}docs-chat:quota:<identity>`;
 * on one Redis the names are exactly these. Moving to a cluster renames every key to its tag
 * followed by its name (docs/deployment.md).
 *
 *   quota:<identity>  hash, all the quota state of one identity:
 *       day, free, spent  counters of UTC day `day` (free queries used, paid queries spent)
 *       credits           paid credits; they survive day changes
 *       h:<holdId>        one field per open hold: "f|<day>|<expiresAt>" or "p|<day>|<expiresAt>"
 *     A non-empty hash always has all four of day, free, spent, credits; every number is a
 *     non-negative integer of at most 15 digits; any other field is corrupt state.
 *     TTL, set by every script that writes it: credits > 0 -> PERSIST (paid credits never
 *     expire); nothing left (free = 0, spent = 0, credits = 0, no holds) -> DEL; otherwise it
 *     expires at the end of UTC day `day` + 1 h (holds last 120 s, well inside that margin).
 *   sig:<signature>   "usedAt|claimId|queries|identity", 30 days (signature-lua.ts); x402 claims
 *                     and facilitator settlements (markUsed: queries 0, no quota key) too
 *   ref:id:<identity>  the random memo reference an identity was handed before references were
 *                     sealed (core/payments/memo-reference.ts): read when a transfer is verified,
 *                     never written; it lapses by its 90-day expiry (as ref:of:<reference>, unread)
 *   x402:<paymentId>  hash, an issued HTTP 402 payment request (layout: x402-lua.ts)
 *   answer:<answerId>  the identity an answer id was issued to, 7 days
 *   feedback:<answerId>  hash: vote ("up"/"down"), at (epoch ms), comment (optional), 90 days
 *   lock:payer:<address> / lock:source:<token account>  the x402 v2 settlement in flight
 *                     (its transaction id), 120 s, or 10 s after a failure (settlement-locks.ts)
 *   pending-settlements / pending-settlements:lease  sponsored settlements whose outcome is not
 *                     known yet, and the reconciler's lease (pending-settlements.ts)
 *   sponsor-strikes:<wallet> / sponsor-lost:<hour>  a wallet's failures on chain and refusal, a
 *                     week; lamports lost that UTC hour, two hours (sponsor-losses.ts)
 *   session:<sha256 of token> / sessions:<wallet> / siwx:<nonce>  wallet sessions, the
 *                     wallet's session generation and used sign-in nonces (redis-sessions.ts);
 *                     wsessions:<wallet> / signins:<wallet> its live sessions and sign-in count;
 *                     evictable-sessions  the capped eviction order of sessions (session-lua.ts)
 *   seal-key          the generated key of sealed 402s and challenges (core/ports/request-seal.ts)
 *   link:<identity>   hash: the wallet an identity paid with and what it may spend of it (its
 *                     allowance and open holds), 30 days (link-lua.ts, redis-sessions.ts)
 *   ceiling:<name>:<window>:<subject> / ceiling:<name>:<subject>  the counters of the service's
 *                     windowed ceilings (core/ceilings/ceilings.ts), a window's until it ends
 *                     (plus 5 s), and the sets of distinct members (a payment_id's signatures
 *                     looked up) until their horizon (ceiling-counter.ts); the service's prefix
 *                     only, every site shares them
 *   pid:<route>:<id>  the first result of a settled payment named by an x402 payment
 *                     identifier (JSON), a day; pids  sorted set of them by time kept, capped
 *                     (paid-results.ts)
 *   conversation:<identity>:<id> / conversations  a conversation's recent turns (list of JSON),
 *                     expiring 30 minutes after its last answer, and the capped order of all
 *                     conversations by last answer (redis-conversations.ts)
 *   insights:events   sorted set of insight events (score: time), bounded by the retention and
 *                     the cap (redis-insights.ts); expires after the retention without events
 *   unattributed:at / unattributed:entries  verified transfers attributed to nobody, for a
 *                     refund by hand: signatures by block time, and each one's entry
 *                     (redis-unattributed.ts), bounded by retention and cap
 */
export const DEFAULT_KEY_PREFIX = "docs-chat:";

/**
 * The key names under one prefix. Used signatures may live under another (`ledgerPrefix`): a
 * hosted site's store keeps them in the service's ledger, so one transfer pays once service-wide.
 *
 * On a Redis Cluster (`cluster`) each name is its single-node name behind a hash tag, `{tag}`,
 * so the keys one script touches share a slot; on one Redis the names carry no tag and stay
 * byte for byte what they were (existing deployments keep their keys). The tags:
 *
 *   {<ledger prefix>}  the money and sessions of every site: quota, sig, x402, link, session,
 *       sessions, wsessions, signins, evictable-sessions. A claim spans the service's ledger
 *       and a site's quota, a link spans an identity's quota and a wallet's, the session
 *       eviction order spans a site's sessions: one slot, so every script stays one atomic step
 *   {<prefix>answer:<id>}  an answer id's owner and its feedback
 *   {<prefix>answers} / {<prefix>pids} / {<prefix>unattributed}  a site's answer cache, paid
 *       results and unattributed payments, each with its index
 *   {<prefix>lock} / {<prefix>sponsor} / {<prefix>ceiling}  the service's settlement locks,
 *       sponsor losses and ceiling counters (an admit spans a client's and everyone's counters)
 *   none: the keys no script touches with another (ref:id, siwx, seal-key, insights, the
 *       conversations, pending settlements, docs-sync, the site's wallet) hash on their own name
 *
 * So the money keys live on one primary (what one Redis gives today) and the rest spread.
 */
export const keyLayout = (prefix: string, ledgerPrefix: string = prefix, cluster = false) => {
  if (cluster && /[{}]/.test(prefix + ledgerPrefix))
    throw new Error("a key prefix on Redis Cluster must hold no { or }: the hash tag must be the first");
  /** The prefix of a family's keys: the tag (cluster only), then the single-node prefix. */
  const tagged = (tag: string, under: string) => (cluster ? `{${tag}}${under}` : under);
  const money = tagged(ledgerPrefix, prefix);
  const ledger = tagged(ledgerPrefix, ledgerPrefix);
  return {
    /** The one hash holding an identity's whole quota state. */
    quota: (identity: string) => `${money}quota:${identity}`,
    signature: (signature: string) => `${ledger}sig:${signature}`,
    legacyReference: (identity: string) => `${prefix}ref:id:${identity}`,
    payment: (paymentId: string) => `${money}x402:${paymentId}`,
    answer: (answerId: string) => `${tagged(`${prefix}answer:${answerId}`, prefix)}answer:${answerId}`,
    feedback: (answerId: string) => `${tagged(`${prefix}answer:${answerId}`, prefix)}feedback:${answerId}`,
    insights: `${prefix}insights:events`,
    unattributedAt: `${tagged(`${prefix}unattributed`, prefix)}unattributed:at`,
    unattributedEntries: `${tagged(`${prefix}unattributed`, prefix)}unattributed:entries`,
    settlementLock: (key: string) => `${tagged(`${prefix}lock`, prefix)}lock:${key}`,
    session: (tokenHash: string) => `${money}session:${tokenHash}`,
    sessionGeneration: (wallet: string) => `${money}sessions:${wallet}`,
    signInNonce: (nonce: string) => `${prefix}siwx:${nonce}`,
    /** The wallet's live sessions (sorted set: token hash by expiry) and its sign-ins this window. */
    walletSessions: (wallet: string) => `${money}wsessions:${wallet}`,
    signIns: (wallet: string) => `${money}signins:${wallet}`,
    /** The global eviction order of sessions (sorted set, capped: session-lua.ts). */
    evictableSessions: `${money}evictable-sessions`,
    /** The generated HMAC key every instance seals 402s and sign-in challenges with (no TTL). */
    sealKey: `${prefix}seal-key`,
    // Was payer:<identity> (a string, no allowance): those lapse unread, so they link nothing.
    payerLink: (identity: string) => `${money}link:${identity}`,
    paidResult: (key: string) => `${tagged(`${prefix}pids`, prefix)}pid:${key}`,
    paidResults: `${tagged(`${prefix}pids`, prefix)}pids`,
    /** What the sponsor losses and the ceiling counters put before their own names (sponsor-losses.ts, ceiling-counter.ts). */
    sponsorPrefix: tagged(`${prefix}sponsor`, prefix),
    ceilingPrefix: tagged(`${prefix}ceiling`, prefix),
  };
};

/** The answer cache's entry and index names (answer-cache.ts), one slot per site on a cluster. */
export const answerCacheKeys = (prefix: string, cluster: boolean) => {
  const under = cluster ? `{${prefix}answers}${prefix}` : prefix;
  return { entry: (key: string) => `${under}answer:${key}`, index: `${under}answers` };
};

export type KeyLayout = ReturnType<typeof keyLayout>;
