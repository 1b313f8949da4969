/**
 * Who may read the insights: a request carrying ADMIN_TOKEN as a bearer token, or the session
 * cookie the login form sets. Secrets are compared in constant time (over SHA-256 digests, so
 * not even the length leaks). The cookie holds no token: a random session id and its expiry,
 * signed with HMAC under the token (a hosted site's: under its store's secret and its tokens),
 * so changing ADMIN_TOKEN ends every session. Logging out
 * revokes the session's id on the server (kept until it would have expired), so a copied cookie
 * stops working at logout, not 12 hours later. Revocations are per instance: behind several
 * instances a logged-out cookie still opens the others until it expires (see docs/insights.md).
 */
import { createHmac, randomBytes } from "node:crypto";
import * as Redacted from "effect/Redacted";
import { sameSecret, sha256Hex } from "../../hono-kit/same-secret.ts";

/** The cookie's name over http; over https it carries the `__Host-` prefix (host-only, Secure, Path=/). */
export const SESSION_COOKIE = "docs_chat_admin";
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
export const SESSION_MS = 12 * 60 * 60_000;
/** Revoked ids kept at most (only a signed-in owner can add one, by logging out). */
const MAX_REVOKED = 10_000;

/**
 * What a request proves: nothing, something wrong (a guess or a forgery), the right to read, or
 * the operator's ADMIN_TOKEN on a host a site's owner runs ("elsewhere": refused, and said why).
 */
export type Credentials = "none" | "wrong" | "ok" | "elsewhere";

const SESSION = /^([A-Za-z0-9_-]{22})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * What opens a console: which typed or bearer tokens match on a request naming Host `host`, and
 * the key its session cookies are signed with (changing a token changes the key, so every
 * session ends).
 */
export interface ConsoleDoor {
  readonly matches: (given: string, host: string | undefined) => Exclude<Credentials, "none">;
  readonly sessionKey: string;
}

/** What a site's console is built from besides its id and tokens. */
export interface SiteDoorParts {
  /**
   * A MAC under a secret of the site's store (its RequestSeal key: every instance sharing the
   * store holds it, nobody else does): session cookies are signed under it, not under what the
   * sites file holds, which is public (an owner sends its token's hash in).
   */
  readonly seal: (message: string) => string;
  /** Whether a Host is one the site's owner controls (its `hosts`): ADMIN_TOKEN is not taken there. */
  readonly ownerHost: (host: string | undefined) => boolean;
}

/**
 * A site's console (every site's, the root site's included): its owner's token (the sites file
 * keeps only its SHA-256) or the operator's ADMIN_TOKEN, the latter only on a Host no site's
 * owner controls (the service's): an owner runs the DNS and TLS of its own host names and could
 * read whatever is sent there, and ADMIN_TOKEN opens every site. Sessions are signed under a
 * secret the site's instances share (its store's, or ADMIN_TOKEN for the root site, which has
 * no owner), the site's id and both tokens, so a session of another site's console never opens
 * this one, and nobody who only read the sites file can make one.
 */
export const siteDoor = (
  id: string,
  ownerTokenSha256: string | undefined,
  operator: Redacted.Redacted<string> | undefined,
  parts: SiteDoorParts,
): ConsoleDoor | undefined => {
  if (ownerTokenSha256 === undefined && operator === undefined) return undefined;
  const operatorSecret = operator === undefined ? undefined : Redacted.value(operator);
  return {
    matches: (given, host) => {
      if (ownerTokenSha256 !== undefined && sameSecret(sha256Hex(given), ownerTokenSha256)) return "ok";
      if (operatorSecret === undefined || !sameSecret(given, operatorSecret)) return "wrong";
      return parts.ownerHost(host) ? "elsewhere" : "ok";
    },
    sessionKey: parts.seal(`${id}|${ownerTokenSha256 ?? ""}|${operatorSecret ?? ""}`),
  };
};

export const adminCredentials = (door: ConsoleDoor, now: () => number = Date.now) => {
  const secret = door.sessionKey;
  const signature = (id: string, expiresAt: number) =>
    createHmac("sha256", secret).update(`admin-session|${id}|${expiresAt}`).digest("base64url");
  /** Session id -> when it would have expired. */
  const revoked = new Map<string, number>();

  const bearer = (authorization: string | undefined, host: string | undefined): Credentials => {
    if (authorization === undefined) return "none";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match === null ? "wrong" : door.matches(match[1] ?? "", host);
  };

  /** The session's id and expiry when the cookie is ours (signed under the token), else undefined. */
  const signed = (cookie: string) => {
    const match = SESSION.exec(cookie);
    if (match === null) return undefined;
    const [, id = "", expires = ""] = match;
    const expiresAt = Number(expires);
    return sameSecret(match[3] ?? "", signature(id, expiresAt)) ? { id, expiresAt } : undefined;
  };

  /**
   * A session that does not verify, has expired or was revoked is "none", never a guess: its
   * 256-bit HMAC cannot be guessed, and a cookie gone stale (an older format after an upgrade,
   * a rotated ADMIN_TOKEN) would otherwise count as failures and lock its owner out.
   */
  const session = (cookie: string | undefined): Credentials => {
    if (cookie === undefined) return "none";
    const found = signed(cookie);
    if (found === undefined) return "none";
    return found.expiresAt > now() && !revoked.has(found.id) ? "ok" : "none";
  };

  const forgetExpired = () => {
    const at = now();
    for (const [id, expiresAt] of revoked) if (expiresAt <= at) revoked.delete(id);
    // Sessions all last SESSION_MS, so insertion order is expiry order: the first go first.
    for (const id of revoked.keys()) {
      if (revoked.size < MAX_REVOKED) break;
      revoked.delete(id);
    }
  };

  return {
    /** The bearer token if one is sent (it wins), else the session cookie; `host` is the request's Host. */
    check: (
      authorization: string | undefined,
      cookie: string | undefined,
      host: string | undefined,
    ): Credentials => (authorization !== undefined ? bearer(authorization, host) : session(cookie)),
    /** What a token typed into the login form of a request naming Host `host` proves. */
    isToken: (given: string, host: string | undefined): Credentials => door.matches(given, host),
    /** A fresh session cookie value: a new random id. */
    newSession: (): string => {
      const id = randomBytes(16).toString("base64url");
      const expiresAt = now() + SESSION_MS;
      return `${id}.${expiresAt}.${signature(id, expiresAt)}`;
    },
    /** Ends the session of a cookie we signed; anything else is ignored (nobody can fill the list). */
    revoke: (cookie: string | undefined): void => {
      const found = cookie === undefined ? undefined : signed(cookie);
      if (found === undefined || found.expiresAt <= now()) return;
      forgetExpired();
      revoked.set(found.id, found.expiresAt);
    },
  };
};

export type AdminCredentials = ReturnType<typeof adminCredentials>;
