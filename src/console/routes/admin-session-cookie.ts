/**
 * The session cookie's name and attributes, and whether a console form came from the console's
 * own page. Over https the cookie is `__Host-docs_chat_admin` with Secure (host-only, Path=/, so
 * neither a sibling subdomain nor a plain-http page can set or read it); https is known from
 * PUBLIC_ORIGIN, else from the request itself or a proxy TRUST_PROXY names (X-Forwarded-Proto,
 * believed only from such a proxy: anyone else could write it).
 */
import type { Context } from "hono";
import { peerIsTrustedProxy } from "../../../core/client-identity.ts";
import type { TrustProxy } from "../../../core/trust-proxy.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "./admin-credentials.ts";

/** Whether the browser reached us over https: directly, or (first entry, as Express reads it) through a trusted proxy. */
const overHttps = (c: Context<AppEnv>, trustProxy: TrustProxy): boolean => {
  if (new URL(c.req.url).protocol === "https:") return true;
  if (!peerIsTrustedProxy(c.env.remoteAddress, trustProxy)) return false;
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
};

export const sessionCookie = (trustProxy: TrustProxy, publicOrigin: string | undefined, site?: string) => {
  const alwaysHttps = publicOrigin?.startsWith("https:") === true;
  const secure = (c: Context<AppEnv>) => alwaysHttps || overHttps(c, trustProxy);
  // Each hosted site's console keeps its session under its own name: signing in to one never
  // replaces the operator's session, nor another site's.
  const suffix = site === undefined ? "" : `_${site.replaceAll("-", "_")}`;
  return {
    /** The name this request's browser holds the session under. */
    name: (c: Context<AppEnv>) => (secure(c) ? SECURE_SESSION_COOKIE : SESSION_COOKIE) + suffix,
    options: (c: Context<AppEnv>) => ({
      path: "/",
      httpOnly: true,
      sameSite: "Strict" as const,
      secure: secure(c),
    }),
    /**
     * Whether a login or logout was sent by the console's own page. A browser says so in
     * Sec-Fetch-Site (only "same-origin" passes; "same-site" is another port or subdomain), or,
     * before that header existed, in Origin (the public origin, else this request's own).
     * A request with neither is no page's (curl, a script): it could send anything anyway.
     */
    fromOwnPage: (c: Context<AppEnv>): boolean => {
      const site = c.req.header("sec-fetch-site");
      if (site !== undefined) return site === "same-origin";
      const origin = c.req.header("origin");
      if (origin === undefined) return true;
      // The request's URL carries the Host header the browser (or the proxy, passing it on) sent.
      const own = publicOrigin ?? `${secure(c) ? "https" : "http"}://${new URL(c.req.url).host}`;
      return origin === own;
    },
  };
};

export type SessionCookie = ReturnType<typeof sessionCookie>;
