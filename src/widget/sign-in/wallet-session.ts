/**
 * The wallet session the widget holds after a payment or a sign-in: kept in this docs site's
 * localStorage (per service), sent as the X-Wallet-Session header, never put in a URL. Dropped
 * on sign-out, on expiry, and when the service says it was revoked.
 */
export interface HeldSession {
  readonly token: string;
  readonly expiresAt: number;
  readonly wallet: string;
}

export const SESSION_HEADER = "X-Wallet-Session";

const isHeld = (value: unknown): value is HeldSession => {
  const held = value as Partial<HeldSession> | null;
  return (
    typeof held?.token === "string" && typeof held.expiresAt === "number" && typeof held.wallet === "string"
  );
};

export const sessionStore = (apiUrl: string) => {
  const key = `docs-chat:wallet-session:${apiUrl}`;
  const read = (): HeldSession | undefined => {
    try {
      const held: unknown = JSON.parse(localStorage.getItem(key) ?? "null");
      return isHeld(held) && held.expiresAt > Date.now() ? held : undefined;
    } catch {
      return undefined; // storage blocked or garbled: no session
    }
  };
  return {
    read,
    save: (session: HeldSession) => {
      try {
        localStorage.setItem(key, JSON.stringify(session));
      } catch {
        // Storage blocked: the session lasts as long as the page.
      }
    },
    clear: () => {
      try {
        localStorage.removeItem(key);
      } catch {
        // nothing stored
      }
    },
    /** The header of the held session, or none. */
    headers: (): Record<string, string> => {
      const held = read();
      return held === undefined ? {} : { [SESSION_HEADER]: held.token };
    },
  };
};

export type SessionStore = ReturnType<typeof sessionStore>;

/** "4MJB…" : enough of the address to recognise it. */
export const shortWallet = (wallet: string) => `${wallet.slice(0, 4)}…`;
