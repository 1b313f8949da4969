/**
 * Wallet sessions, payer links and sign-in nonces in process memory (the WalletSessions port). Revoking all
 * of a wallet's sessions bumps its generation: a session opened (or an identity linked) under an
 * older generation reads as revoked. Synchronous, so a nonce is used by one caller only. Swept with the rest of the
 * memory store; nonces last 5 minutes, sessions until they expire.
 */
import { addToLink, liveLink, type PayerLink } from "../../core/payments/link-allowance.ts";
import type { SessionLookup } from "../../core/ports/wallet-sessions.ts";

interface Session {
  readonly wallet: string;
  readonly expiresAt: number;
  readonly generation: number;
  readonly closed: boolean;
}

export const makeMemorySessions = () => {
  const sessions = new Map<string, Session>();
  const generations = new Map<string, number>();
  const nonces = new Map<string, number>();
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

  return {
    open: (tokenHash: string, wallet: string, expiresAt: number, now: number): void => {
      note(now);
      sessions.set(tokenHash, { wallet, expiresAt, generation: generationOf(wallet), closed: false });
    },
    find: (tokenHash: string, now: number): SessionLookup => {
      note(now);
      const session = sessions.get(tokenHash);
      if (session === undefined || session.expiresAt <= now) return { kind: "unknown" };
      if (session.closed || session.generation !== generationOf(session.wallet)) return { kind: "revoked" };
      return { kind: "active", wallet: session.wallet, expiresAt: session.expiresAt };
    },
    close: (tokenHash: string): void => {
      const session = sessions.get(tokenHash);
      if (session !== undefined) sessions.set(tokenHash, { ...session, closed: true });
    },
    closeAll: (wallet: string): void => {
      generations.set(wallet, generationOf(wallet) + 1);
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
    issueNonce: (nonce: string, expiresAt: number, now: number): void => {
      note(now);
      nonces.set(nonce, expiresAt);
    },
    useNonce: (nonce: string, now: number): boolean => {
      const expiresAt = nonces.get(nonce);
      nonces.delete(nonce);
      return expiresAt !== undefined && expiresAt > now;
    },
    /** Forgets expired sessions and nonces (generations stay: a revoked session must stay revoked). */
    sweep: (now: number = latest): void => {
      for (const [hash, session] of sessions) if (session.expiresAt <= now) sessions.delete(hash);
      for (const [nonce, expiresAt] of nonces) if (expiresAt <= now) nonces.delete(nonce);
      for (const [identity, link] of links) if (link.expiresAt <= now) links.delete(identity);
    },
    sizes: () => ({ sessions: sessions.size, nonces: nonces.size, links: links.size }),
  };
};
