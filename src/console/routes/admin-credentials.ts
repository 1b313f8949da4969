/**
 * Who may read the insights: a request carrying ADMIN_TOKEN as a bearer token, or the session
 * cookie the login form sets. Secrets are compared in constant time (over SHA-256 digests, so
 * not even the length leaks). The cookie holds no token: it is an expiry signed with HMAC under
 * the token, so changing ADMIN_TOKEN ends every session, and nothing is kept server-side.
 */
import { createHmac } from "node:crypto";
import { Redacted } from "effect";
import { sameSecret } from "../../hono-kit/same-secret.ts";

export const SESSION_COOKIE = "docs_chat_admin";
export const SESSION_MS = 12 * 60 * 60_000;

/** What a request proves: nothing, something wrong (a guess or a forgery), or the right to read. */
export type Credentials = "none" | "wrong" | "ok";

export const adminCredentials = (token: Redacted.Redacted<string>, now: () => number = Date.now) => {
  const secret = Redacted.value(token);
  const signature = (expiresAt: number) =>
    createHmac("sha256", secret).update(`admin-session|${expiresAt}`).digest("base64url");

  const bearer = (authorization: string | undefined): Credentials => {
    if (authorization === undefined) return "none";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match !== null && sameSecret(match[1] ?? "", secret) ? "ok" : "wrong";
  };

  /** An expired session is "none" (not a guess); a bad signature is "wrong". */
  const session = (cookie: string | undefined): Credentials => {
    if (cookie === undefined) return "none";
    const [expires, mac, ...rest] = cookie.split(".");
    const expiresAt = Number(expires);
    if (rest.length > 0 || !/^\d{1,15}$/.test(expires ?? "") || mac === undefined) return "wrong";
    if (!sameSecret(mac, signature(expiresAt))) return "wrong";
    return expiresAt > now() ? "ok" : "none";
  };

  return {
    /** The bearer token if one is sent (it wins), else the session cookie. */
    check: (authorization: string | undefined, cookie: string | undefined): Credentials =>
      authorization !== undefined ? bearer(authorization) : session(cookie),
    /** Whether a token typed into the login form is the right one. */
    isToken: (given: string): boolean => sameSecret(given, secret),
    /** A fresh session cookie value. */
    newSession: (): string => {
      const expiresAt = now() + SESSION_MS;
      return `${expiresAt}.${signature(expiresAt)}`;
    },
  };
};

export type AdminCredentials = ReturnType<typeof adminCredentials>;
