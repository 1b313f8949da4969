/**
 * /admin: the console page (or the login form), the login that sets the session cookie
 * (HttpOnly, SameSite=Strict, Secure over https), the logout, and the console's bundle.
 * Behind a TLS-terminating proxy the request reaching us is http: the proxy's
 * X-Forwarded-Proto says whether the browser used https, believed only from a proxy TRUST_PROXY
 * names (anyone else could write it).
 */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, setCookie } from "hono/cookie";
import { peerIsTrustedProxy } from "../../../core/client-identity.ts";
import type { TrustProxy } from "../../../core/trust-proxy.ts";
import { type AppEnv, edgeFactsAsVariables } from "../../hono-kit/app-env.ts";
import { widgetAssets } from "../../web/widget-assets.ts";
import { ADMIN_PAGE_HEADERS, CONSOLE_PAGE, loginPage } from "../page.ts";
import { SESSION_COOKIE, SESSION_MS } from "./admin-credentials.ts";
import {
  ADMIN_HEADERS,
  type AdminAccess,
  admit,
  type Refusal,
  requestCredentials,
  retryAfterSeconds,
} from "./admin-gate.ts";

/** The login page that answers a refusal. */
const loginResponse = (c: Context<AppEnv>, refusal: Refusal) => {
  switch (refusal.kind) {
    case "missing":
      return c.html(loginPage("none"), 200, ADMIN_PAGE_HEADERS);
    case "wrong":
      return c.html(loginPage("wrong"), 401, ADMIN_PAGE_HEADERS);
    case "locked":
      return c.html(loginPage("locked"), 429, {
        ...ADMIN_PAGE_HEADERS,
        "Retry-After": retryAfterSeconds(refusal.retryAfterMs),
      });
    default:
      return refusal satisfies never;
  }
};

/** Whether the browser reached us over https: directly, or (first entry, as Express reads it) through a trusted proxy. */
const overHttps = (c: Context<AppEnv>, trustProxy: TrustProxy): boolean => {
  if (new URL(c.req.url).protocol === "https:") return true;
  if (!peerIsTrustedProxy(c.env.remoteAddress, trustProxy)) return false;
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
};

const cookieOptions = (c: Context<AppEnv>, trustProxy: TrustProxy) => ({
  path: "/",
  httpOnly: true,
  sameSite: "Strict" as const,
  secure: overHttps(c, trustProxy),
});

export const adminConsoleRoutes = (access: AdminAccess, trustProxy: TrustProxy, widgetDist?: string) => {
  const assets = widgetAssets(widgetDist, {
    "Content-Type": "text/javascript; charset=utf-8",
    ...ADMIN_HEADERS,
  });
  return new Hono<AppEnv>()
    .use(edgeFactsAsVariables)
    .use(async (c, next) => {
      for (const [name, value] of Object.entries(ADMIN_HEADERS)) c.header(name, value);
      await next();
    })
    .get("/", (c) => {
      const refusal = admit(c, access, requestCredentials(c));
      return refusal === undefined
        ? c.html(CONSOLE_PAGE, 200, ADMIN_PAGE_HEADERS)
        : loginResponse(c, refusal);
    })
    .post(
      "/login",
      bodyLimit({ maxSize: 4096, onError: (c) => c.text("Request body too large", 413) }),
      async (c) => {
        const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const token = typeof body.token === "string" ? body.token : "";
        const refusal = admit(c, access, (credentials) =>
          token === "" ? "none" : credentials.isToken(token) ? "ok" : "wrong",
        );
        if (refusal !== undefined) return loginResponse(c, refusal);
        setCookie(c, SESSION_COOKIE, access.credentials.newSession(), {
          ...cookieOptions(c, trustProxy),
          maxAge: SESSION_MS / 1000,
        });
        c.get("log").info("admin signed in", { identity: c.get("identity") });
        return c.redirect("/admin", 303);
      },
    )
    .post("/logout", (c) => {
      deleteCookie(c, SESSION_COOKIE, cookieOptions(c, trustProxy));
      return c.redirect("/admin", 303);
    })
    .get("/console.js", (c) => assets(c, "admin.js"));
};
