/**
 * The admin session cookie is Secure when the browser used https: a request that is https
 * itself, or one a TLS-terminating proxy named by TRUST_PROXY marks X-Forwarded-Proto: https.
 * Without TRUST_PROXY (or from a peer it does not name) the header is never believed.
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
) => {
  const t = build({ adminToken: TOKEN, trustProxy });
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
const secure = (setCookies: ReadonlyArray<string>) => setCookies.map((c) => c.split("; ").includes("Secure"));

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
