/**
 * The admin session cookie is `__Host-` and Secure when the browser uses https: PUBLIC_ORIGIN
 * says https (whatever the proxy says), or the request is https itself, or a TLS-terminating
 * proxy named by TRUST_PROXY marks it X-Forwarded-Proto: https. Without TRUST_PROXY (or from a
 * peer it does not name) that header is never believed.
 */
import { describe, expect, test } from "bun:test";
import type { TrustProxy } from "../../core/trust-proxy.ts";
import { testApps } from "../support/test-app.ts";

const TOKEN = "test-admin-token-0123456789";
const build = testApps();
const PROXY = "127.0.0.1";
const STRANGER = "203.0.113.7";

/** The Set-Cookie of a login and of a logout, sent from `from` with `headers`. */
const cookies = async (
  trustProxy: TrustProxy,
  from: string,
  headers: Record<string, string> = {},
  url = "/admin",
  publicOrigin?: string,
) => {
  // Bound as in a container (HOST=0.0.0.0): any Host reaches the console, https://docs.example too.
  const t = build({ adminToken: TOKEN, trustProxy, surface: { publicOrigin }, host: "0.0.0.0" });
  const send = (path: string, body?: string) =>
    t.call(
      `${url}${path}`,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body,
      },
      from,
    );
  const login = await send("/login", new URLSearchParams({ token: TOKEN }).toString());
  expect(login.status).toBe(303);
  const logout = await send("/logout");
  return [login.headers.get("set-cookie") ?? "", logout.headers.get("set-cookie") ?? ""];
};
/** Whether each Set-Cookie is Secure, and under the `__Host-` name exactly when it is. */
const secure = (setCookies: ReadonlyArray<string>) =>
  setCookies.map((c) => {
    const isSecure = c.split("; ").includes("Secure");
    expect(c.startsWith(isSecure ? "__Host-docs_chat_admin=" : "docs_chat_admin=")).toBe(true);
    return isSecure;
  });

const loopback: TrustProxy = { kind: "list", cidrs: ["127.0.0.0/8"] };
const https = { "X-Forwarded-Proto": "https" };

describe("the admin cookie's Secure flag", () => {
  test("without TRUST_PROXY, X-Forwarded-Proto is never believed, from any peer", async () => {
    expect(secure(await cookies({ kind: "none" }, PROXY, https))).toEqual([false, false]);
    expect(secure(await cookies({ kind: "none" }, STRANGER, https))).toEqual([false, false]);
  });

  test("an https request is Secure whatever the proxy setting", async () => {
    expect(secure(await cookies({ kind: "none" }, STRANGER, {}, "https://docs.example/admin"))).toEqual([
      true,
      true,
    ]);
  });

  test("a trusted proxy's X-Forwarded-Proto: https makes it Secure (login and logout alike)", async () => {
    expect(secure(await cookies(loopback, PROXY, https))).toEqual([true, true]);
    expect(secure(await cookies(loopback, PROXY, { "X-Forwarded-Proto": " HTTPS " }))).toEqual([true, true]);
    // Several proxies: the first entry is the browser's side, as Express reads it.
    expect(secure(await cookies(loopback, PROXY, { "X-Forwarded-Proto": "https, http" }))).toEqual([
      true,
      true,
    ]);
    expect(secure(await cookies({ kind: "hops", hops: 1 }, STRANGER, https))).toEqual([true, true]);
  });

  test("a trusted proxy saying http, or saying nothing, or a peer TRUST_PROXY does not name: not Secure", async () => {
    expect(secure(await cookies(loopback, PROXY, { "X-Forwarded-Proto": "http" }))).toEqual([false, false]);
    expect(secure(await cookies(loopback, PROXY, { "X-Forwarded-Proto": "http, https" }))).toEqual([
      false,
      false,
    ]);
    expect(secure(await cookies(loopback, PROXY))).toEqual([false, false]);
    expect(secure(await cookies(loopback, STRANGER, https))).toEqual([false, false]);
  });
});

describe("PUBLIC_ORIGIN", () => {
  test("https: __Host- and Secure with no proxy setting at all, from any peer", async () => {
    const origin = "https://chat.example.com";
    expect(secure(await cookies({ kind: "none" }, STRANGER, {}, "/admin", origin))).toEqual([true, true]);
    expect(
      secure(await cookies({ kind: "none" }, PROXY, { "X-Forwarded-Proto": "http" }, "/admin", origin)),
    ).toEqual([true, true]);
  });

  test("http (a local trial): the plain name, not Secure", async () => {
    expect(secure(await cookies({ kind: "none" }, STRANGER, {}, "/admin", "http://localhost:3000"))).toEqual([
      false,
      false,
    ]);
  });

  test("over https only the __Host- cookie is read: a plain-named copy (set by a sibling host) opens nothing", async () => {
    const t = build({ adminToken: TOKEN, surface: { publicOrigin: "https://chat.example.com" } });
    const login = await t.call("/admin/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: TOKEN }).toString(),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie.startsWith("__Host-docs_chat_admin=")).toBe(true);
    expect((await t.call("/api/admin/insights", { headers: { Cookie: cookie } })).status).toBe(200);
    const plain = cookie.replace("__Host-", "");
    expect((await t.call("/api/admin/insights", { headers: { Cookie: plain } })).status).toBe(401);
  });
});
