/**
 * Wallet sessions, payer links and sign-in nonces in process memory (the WalletSessions port). Revoking all
 * of a wallet's sessions bumps its generation: a session opened (or an identity linked) under an
 * older generation reads as revoked. Synchronous, so a nonce is used by one caller only. Swept with the rest of the
 * memory store; used nonces last until their challenge expires, sessions until they expire. Each
 * wallet's sessions are listed oldest first, so the one past the cap is revoked in the same turn.
 * Sessions of wallets without credits, and sessions no longer live, are also in one global
 * insertion-ordered set (the eviction order, core/sign-in/session-ceilings.ts), trimmed to the cap
 * in the same turn as the open that grew it.
 */
import { addToLink, liveLink, type PayerLink } from "../../../core/payments/link-allowance.ts";
import type { SessionLookup } from "../../../core/ports/wallet-sessions.ts";
import {
  MAX_SESSIONS_PER_WALLET,
  MAX_SIGN_INS_PER_WALLET,
  retiredExpiry,
  SIGN_IN_WINDOW_MS,
} from "../../../core/sign-in/session-ceilings.ts";

interface Session {
  readonly wallet: string;
  readonly expiresAt: number;
  readonly generation: number;
  readonly closed: boolean;
}

/**
 * `holdsCredits` tells whether a wallet holds paid credits now (its sessions are then not
 * evictable); `maxEvictable` caps the eviction order.
 */
export const makeMemorySessions = (holdsCredits: (wallet: string) => boolean, maxEvictable: number) => {
  const sessions = new Map<string, Session>();
  /** Sessions of wallets without credits and sessions no longer live, oldest first (Set keeps insertion order). */
  const evictable = new Set<string>();
  const generations = new Map<string, number>();
  /** Used sign-in nonces, until their challenge expires (a nonce is written only by a sign-in). */
  const nonces = new Map<string, number>();
  /** Each wallet's session hashes, oldest first. */
  const byWallet = new Map<string, string[]>();
  /** Each wallet's sign-ins in the current window. */
  const signIns = new Map<string, { readonly count: number; readonly windowEnd: number }>();
  const links = new Map<string, PayerLink>();
  const generationOf = (wallet: string) => generations.get(wallet) ?? 0;
  // A link made before its wallet's owner signed out everywhere is void, as its sessions are.
  const live = (identity: string, now: number) => {
    const link = links.get(identity);
    return liveLink(link, link === undefined ? 0 : generationOf(link.wallet), now);
  };
  // The newest `now` callers passed in: the sweeper's clock, so it agrees with the callers'.
  let latest = Number.NEGATIVE_INFINITY;
  const note = (now: number) => {
    latest = Math.max(latest, now);
  };

  const isLive = (session: Session, now: number) =>
    session.expiresAt > now && !session.closed && session.generation === generationOf(session.wallet);
  /** Closes a session: it reads revoked for a day at most, and joins the end of the eviction order. */
  const retire = (hash: string, now: number) => {
    const session = sessions.get(hash);
    if (session === undefined) return;
    const expiresAt = retiredExpiry(session.expiresAt, now);
    evictable.delete(hash);
    if (expiresAt <= now) {
      sessions.delete(hash);
      return;
    }
    sessions.set(hash, { ...session, closed: true, expiresAt });
    evictable.add(hash);
  };
  const forget = (hash: string, wallet: string) => {
    sessions.delete(hash);
    const listed = byWallet.get(wallet)?.filter((other) => other !== hash);
    if (listed === undefined || listed.length === 0) byWallet.delete(wallet);
    else byWallet.set(wallet, listed);
  };
  /** Deletes the oldest evictable sessions while more than the cap are held; a live one of a wallet with credits just leaves the order. */
  const trim = (now: number) => {
    for (const oldest of evictable) {
      if (evictable.size <= maxEvictable) return;
      evictable.delete(oldest);
      const session = sessions.get(oldest);
      if (session === undefined || (isLive(session, now) && holdsCredits(session.wallet))) continue;
      forget(oldest, session.wallet);
    }
  };

  return {
    open: (tokenHash: string, wallet: string, expiresAt: number, now: number): void => {
      note(now);
      const generation = generationOf(wallet);
      // Only live sessions count: expired, closed or revoked ones leave the list.
      const live = (byWallet.get(wallet) ?? []).filter((hash) => {
        const session = sessions.get(hash);
        return session !== undefined && isLive(session, now);
      });
      while (live.length >= MAX_SESSIONS_PER_WALLET) retire(live.shift() as string, now);
      live.push(tokenHash);
      byWallet.set(wallet, live);
      sessions.set(tokenHash, { wallet, expiresAt, generation, closed: false });
      if (!holdsCredits(wallet)) evictable.add(tokenHash);
      trim(now);
    },
    find: (tokenHash: string, now: number): SessionLookup => {
      note(now);
      const session = sessions.get(tokenHash);
      if (session === undefined || session.expiresAt <= now) return { kind: "unknown" };
      if (session.closed || session.generation !== generationOf(session.wallet)) return { kind: "revoked" };
      return { kind: "active", wallet: session.wallet, expiresAt: session.expiresAt };
    },
    close: (tokenHash: string, now: number): void => {
      note(now);
      retire(tokenHash, now);
      trim(now);
    },
    closeAll: (wallet: string, now: number): void => {
      note(now);
      for (const hash of byWallet.get(wallet) ?? []) retire(hash, now);
      generations.set(wallet, generationOf(wallet) + 1);
      byWallet.delete(wallet);
      trim(now);
    },
    link: (identity: string, wallet: string, queries: number, expiresAt: number, now: number): void => {
      note(now);
      links.set(identity, addToLink(live(identity, now), wallet, generationOf(wallet), queries, expiresAt));
    },
    linked: (identity: string, now: number): string | undefined => {
      note(now);
      return live(identity, now)?.wallet;
    },
    /** The identity's live link to `wallet` (memory-wallet-credits.ts spends through it). */
    linkOf: (identity: string, wallet: string, now: number): PayerLink | undefined => {
      const link = live(identity, now);
      return link?.wallet === wallet ? link : undefined;
    },
    saveLink: (identity: string, link: PayerLink | undefined): void => {
      if (link !== undefined) links.set(identity, link);
    },
    nonceUsed: (nonce: string, now: number): boolean => (nonces.get(nonce) ?? 0) > now,
    useNonce: (nonce: string, expiresAt: number, now: number): boolean => {
      note(now);
      const used = nonces.get(nonce);
      if (expiresAt <= now || (used !== undefined && used > now)) return false;
      nonces.set(nonce, expiresAt);
      return true;
    },
    countSignIn: (wallet: string, now: number): boolean => {
      note(now);
      const current = signIns.get(wallet);
      const fresh = current === undefined || current.windowEnd <= now;
      // A wallet with no session record yet (a fresh keypair's first sign-in) writes no counter,
      // as on Redis: fresh wallets are free, so a counter each would be state a stranger multiplies.
      // Its first counter counts the session it already holds too.
      const counted = !fresh || (byWallet.get(wallet)?.length ?? 0) > 0;
      const window = fresh ? { count: 1, windowEnd: now + SIGN_IN_WINDOW_MS } : current;
      if (counted && window.count >= MAX_SIGN_INS_PER_WALLET) return false;
      if (counted) signIns.set(wallet, { count: window.count + 1, windowEnd: window.windowEnd });
      return true;
    },
    /** Forgets expired sessions and nonces (generations stay: a revoked session must stay revoked). */
    sweep: (now: number = latest): void => {
      for (const [hash, session] of sessions)
        if (session.expiresAt <= now) {
          sessions.delete(hash);
          evictable.delete(hash);
        }
      for (const [nonce, expiresAt] of nonces) if (expiresAt <= now) nonces.delete(nonce);
      for (const [identity, link] of links) if (link.expiresAt <= now) links.delete(identity);
      for (const [wallet, window] of signIns) if (window.windowEnd <= now) signIns.delete(wallet);
      for (const [wallet, hashes] of byWallet) {
        const kept = hashes.filter((hash) => sessions.has(hash));
        if (kept.length === 0) byWallet.delete(wallet);
        else byWallet.set(wallet, kept);
      }
    },
    sizes: () => ({
      sessions: sessions.size,
      evictable: evictable.size,
      nonces: nonces.size,
      links: links.size,
      signIns: signIns.size,
    }),
  };
};
