/**
 * The door of every admin route: a client locked out after wrong tokens gets 429 (whatever it
 * sends), a request without credentials or with wrong ones 401; a wrong one is counted, logged
 * and brings the lock-out closer. Admin responses are never cached.
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import type { FailureLimiter } from "../../hono-kit/failure-limiter.ts";
import { hostOf } from "../../http/edge/host-of.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { AdminCredentials, Credentials } from "./admin-credentials.ts";
import type { SessionCookie } from "./admin-session-cookie.ts";

export interface AdminAccess {
  readonly credentials: AdminCredentials;
  readonly limiter: FailureLimiter;
  readonly metrics: Metrics;
  readonly cookie: SessionCookie;
}

/** Why a request may not pass: locked out (retry in `retryAfterMs`), or not (rightly) authenticated. */
export type Refusal =
  | { readonly kind: "locked"; readonly retryAfterMs: number }
  | { readonly kind: "missing" }
  | { readonly kind: "wrong" }
  | { readonly kind: "elsewhere" };

/** Why ADMIN_TOKEN is refused on a site owner's host (the API's error and the login form's). */
export const ELSEWHERE_TEXT =
  "The operator's ADMIN_TOKEN is taken only on the service's own host names, not on a host a site's owner runs (its owner could read it): open the console at /sites/<id>/admin on the service's address, and change ADMIN_TOKEN if you sent it here by mistake.";

export const ADMIN_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** Counts the refusal where it is one; the refusal, or undefined when the client may pass. */
export const admit = (
  c: Context<AppEnv>,
  access: AdminAccess,
  check: (credentials: AdminCredentials) => Credentials,
): Refusal | undefined => {
  const identity = c.env.identity;
  const retryAfterMs = access.limiter.lockedFor(identity);
  if (retryAfterMs > 0) {
    access.metrics.count("admin_auth_locked_total");
    return { kind: "locked", retryAfterMs };
  }
  const verdict = check(access.credentials);
  if (verdict === "ok") {
    access.limiter.succeed(identity);
    return undefined;
  }
  if (verdict === "none") return { kind: "missing" };
  // Counted like a wrong token: telling it apart must not make guessing ADMIN_TOKEN free there.
  access.limiter.fail(identity);
  access.metrics.count("admin_auth_failures_total");
  if (verdict === "elsewhere") {
    c.env.log.warn("ADMIN_TOKEN sent on a site owner's host, refused", { identity });
    return { kind: "elsewhere" };
  }
  c.env.log.warn("wrong admin credentials", { identity });
  return { kind: "wrong" };
};

/** The request's own credentials: a bearer token, else the session cookie. */
export const requestCredentials =
  (c: Context<AppEnv>, access: AdminAccess) => (credentials: AdminCredentials) =>
    credentials.check(c.req.header("authorization"), getCookie(c, access.cookie.name(c)), hostOf(c.req.raw));

export { retryAfterSeconds } from "../../hono-kit/bearer-door.ts";
