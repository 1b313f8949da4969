/**
 * /admin: the console page (or the login form), the login that sets the session cookie
 * (HttpOnly, SameSite=Strict; `__Host-` and Secure over https: admin-session-cookie.ts), the
 * logout that revokes the session, and the console's bundle. Login and logout come only from
 * the console's own page (Sec-Fetch-Site / Origin), never from another site's.
 */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { hostOf } from "../../http/edge/host-of.ts";
import { widgetAssets } from "../../web/widget-assets.ts";
import { ADMIN_PAGE_HEADERS, consolePage, loginPage } from "../page.ts";
import { SESSION_MS } from "./admin-credentials.ts";
import {
  ADMIN_HEADERS,
  type AdminAccess,
  admit,
  type Refusal,
  requestCredentials,
  retryAfterSeconds,
} from "./admin-gate.ts";
import type { ConsoleName } from "./console-name.ts";

/** The login page that answers a refusal. */
const loginResponse = (c: Context<AppEnv>, refusal: Refusal, base: string, site: ConsoleName) => {
  switch (refusal.kind) {
    case "missing":
      return c.html(loginPage("none", base, site), 200, ADMIN_PAGE_HEADERS);
    case "wrong":
      return c.html(loginPage("wrong", base, site), 401, ADMIN_PAGE_HEADERS);
    case "elsewhere":
      return c.html(loginPage("elsewhere", base, site), 403, ADMIN_PAGE_HEADERS);
    case "locked":
      return c.html(loginPage("locked", base, site), 429, {
        ...ADMIN_PAGE_HEADERS,
        "Retry-After": retryAfterSeconds(refusal.retryAfterMs),
      });
    default:
      return refusal satisfies never;
  }
};

/**
 * A login or logout another site's page sent: refused before anything is counted, so a page the
 * owner visits can neither lock the owner out with wrong tokens nor sign the owner out.
 */
const crossSite = (c: Context<AppEnv>, access: AdminAccess) => {
  access.metrics.count("admin_cross_site_refused_total");
  c.env.log.warn("cross-site admin request refused", {
    identity: c.env.identity,
    origin: c.req.header("origin")?.slice(0, 100),
    site: c.req.header("sec-fetch-site")?.slice(0, 20),
  });
  return c.text("Cross-site request refused: sign in from this service's own /admin page.", 403);
};

/** The console under `base` ("" for the operator's, `/sites/<id>` for a hosted site's), named by `name`. */
export const adminConsoleRoutes = (
  access: AdminAccess,
  name: () => Promise<ConsoleName>,
  widgetDist?: string,
  base = "",
) => {
  const { cookie } = access;
  const assets = widgetAssets(widgetDist, {
    "Content-Type": "text/javascript; charset=utf-8",
    ...ADMIN_HEADERS,
  });
  return new Hono<AppEnv>()

    .use(async (c, next) => {
      for (const [name, value] of Object.entries(ADMIN_HEADERS)) c.header(name, value);
      await next();
    })
    .get("/", async (c) => {
      const refusal = admit(c, access, requestCredentials(c, access));
      const site = await name();
      return refusal === undefined
        ? c.html(consolePage(base, site), 200, ADMIN_PAGE_HEADERS)
        : loginResponse(c, refusal, base, site);
    })
    .post(
      "/login",
      bodyLimit({ maxSize: 4096, onError: (c) => c.text("Request body too large", 413) }),
      async (c) => {
        if (!cookie.fromOwnPage(c)) return crossSite(c, access);
        const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const token = typeof body.token === "string" ? body.token : "";
        const refusal = admit(c, access, (credentials) =>
          token === "" ? "none" : credentials.isToken(token, hostOf(c.req.raw)),
        );
        if (refusal !== undefined) return loginResponse(c, refusal, base, await name());
        setCookie(c, cookie.name(c), access.credentials.newSession(), {
          ...cookie.options(c),
          maxAge: SESSION_MS / 1000,
        });
        c.env.log.info("admin signed in", { identity: c.env.identity });
        return c.redirect(`${base}/admin`, 303);
      },
    )
    .post("/logout", (c) => {
      if (!cookie.fromOwnPage(c)) return crossSite(c, access);
      const name = cookie.name(c);
      access.credentials.revoke(getCookie(c, name));
      deleteCookie(c, name, cookie.options(c));
      return c.redirect(`${base}/admin`, 303);
    })
    .get("/console.js", (c) => assets(c, "admin.js"));
};
