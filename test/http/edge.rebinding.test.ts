/**
 * The Host and Origin allow-list against DNS rebinding, on the real app: bound to loopback (the
 * default) only loopback names are served as Host (any port) and a foreign Origin is refused
 * with 403 before the protection limit, the chat quota or the console count anything; with
 * PUBLIC_ORIGIN its name plus ALLOWED_HOSTS; bound elsewhere with neither, any Host is served as
 * before and one WARN line says so at start. A docs site in ALLOWED_ORIGINS keeps its widget.
 */
import { describe, expect, test } from "bun:test";
import type { AppConfig } from "../../core/config/config.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { warnAboutDefaults } from "../../src/runtime/resolve-chain.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

const build = testApps();
const CLIENT = "198.51.100.40";
const DOCS_SITE = "https://docs.example.com";

const get = (t: TestApp, path: string, headers: Record<string, string>) => t.call(path, { headers }, CLIENT);
const codeOf = async (response: Response) => ((await response.json()) as { code?: string }).code;
const postChat = (t: TestApp, headers: Record<string, string>) =>
  t.call(
    "/api/chat",
    { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: '{"message":"q"}' },
    CLIENT,
  );

describe("bound to loopback (the default)", () => {
  test("a rebound name as Host: 403 HOST_NOT_ALLOWED on every path, the MCP endpoint too", async () => {
    const t = build();
    for (const host of ["rebound.example", "rebound.example:3000", "127.0.0.2", "localhost.rebound.example"])
      for (const path of ["/api/status", "/", "/llms.txt"]) {
        const refused = await get(t, path, { Host: host });
        expect({ host, path, status: refused.status }).toEqual({ host, path, status: 403 });
        expect(await codeOf(refused)).toBe("HOST_NOT_ALLOWED");
      }
    const mcp = await t.call(
      "/mcp",
      {
        method: "POST",
        headers: {
          Host: "evil.example.com",
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      },
      CLIENT,
    );
    expect(mcp.status).toBe(403);
    expect(t.metrics.render()).toContain('foreign_host_refused_total{header="host"} 13');
  });

  test("localhost, 127.0.0.1 and [::1] with any port or none are served; no Host at all too", async () => {
    const t = build();
    for (const host of ["localhost", "LocalHost:8080", "127.0.0.1:3000", "127.0.0.1", "[::1]", "[::1]:443"])
      expect({ host, status: (await get(t, "/api/status", { Host: host })).status }).toEqual({
        host,
        status: 200,
      });
    // app.request's own URL (http://localhost/...) without a Host header.
    expect((await t.call("/api/status")).status).toBe(200);
  });

  test("a foreign Origin: 403 ORIGIN_NOT_ALLOWED, counted by no limiter and spending no question", async () => {
    const t = build({ protectionRps: 2, freeQueries: 1, now: () => 1_700_000_000_000 });
    for (const origin of ["https://evil.example", "http://rebound.example:3000", "null"])
      for (let i = 0; i < 5; i++) {
        const refused = await postChat(t, { Origin: origin });
        expect(refused.status).toBe(403);
        expect(await codeOf(refused)).toBe("ORIGIN_NOT_ALLOWED");
      }
    // Fifteen refusals in this second, yet the client's first two chats are within its limit of 2
    // (its one free question, then 402), and only the third is over it.
    expect((await postChat(t, {})).status).toBe(200);
    expect((await postChat(t, {})).status).toBe(402);
    expect((await postChat(t, {})).status).toBe(429);
    const metrics = t.metrics.render();
    expect(metrics).toContain('foreign_host_refused_total{header="origin"} 15');
    expect(metrics).toContain('ceiling_refusals_total{ceiling="protection-limit"} 1');
  });

  test("loopback origins (any port), the request's own origin and ALLOWED_ORIGINS are served", async () => {
    const t = build({ allowedOrigins: [DOCS_SITE], freeQueries: 10 });
    for (const origin of [
      "http://localhost:5173",
      "http://127.0.0.1:3000",
      "https://[::1]",
      "http://localhost",
    ])
      expect({ origin, status: (await postChat(t, { Origin: origin })).status }).toEqual({
        origin,
        status: 200,
      });
    // The widget on the docs site: served, with its CORS headers (preflight included).
    const widget = await postChat(t, { Origin: DOCS_SITE });
    expect(widget.status).toBe(200);
    expect(widget.headers.get("access-control-allow-origin")).toBe(DOCS_SITE);
    const preflight = await t.call(
      "/api/chat",
      { method: "OPTIONS", headers: { Origin: DOCS_SITE, "Access-Control-Request-Method": "POST" } },
      CLIENT,
    );
    expect(preflight.status).toBe(204);
    // "null": our own page's form under Referrer-Policy: no-referrer (the console) is served by the
    // browser's Sec-Fetch-Site; a sandboxed frame on another site is not.
    expect((await postChat(t, { Origin: "null", "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    expect((await postChat(t, { Origin: "null", "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    // A page on the docs site's sibling is not the docs site.
    expect((await postChat(t, { Origin: "https://docs.example.com:8443" })).status).toBe(403);
  });
});

describe("PUBLIC_ORIGIN and ALLOWED_HOSTS", () => {
  const publicApp = () =>
    build({
      host: "0.0.0.0",
      allowedOrigins: [DOCS_SITE],
      surface: { publicOrigin: "https://chat.example.com", allowedHosts: ["app", "[2001:db8::5]"] },
    });

  test("its name, ALLOWED_HOSTS and loopback are served as Host; any other name is refused", async () => {
    const t = publicApp();
    for (const host of [
      "chat.example.com",
      "chat.example.com:443",
      "app:3000",
      "[2001:db8::5]:3000",
      "localhost",
    ])
      expect({ host, status: (await get(t, "/api/status", { Host: host })).status }).toEqual({
        host,
        status: 200,
      });
    for (const host of ["rebound.example", "10.1.2.3:3000", "chat.example.com.evil.example"])
      expect({ host, status: (await get(t, "/api/status", { Host: host })).status }).toEqual({
        host,
        status: 403,
      });
  });

  test("the probes answer a kubelet asking by the pod's IP", async () => {
    const t = publicApp();
    expect((await get(t, "/healthz", { Host: "10.1.2.3:3000" })).status).toBe(200);
    expect((await get(t, "/readyz", { Host: "10.1.2.3:3000" })).status).toBe(200);
  });

  test("Origin: PUBLIC_ORIGIN and ALLOWED_ORIGINS served, another refused", async () => {
    const t = publicApp();
    const host = { Host: "chat.example.com" };
    expect((await postChat(t, { ...host, Origin: "https://chat.example.com" })).status).toBe(200);
    expect((await postChat(t, { ...host, Origin: DOCS_SITE })).status).toBe(200);
    expect((await postChat(t, { ...host, Origin: "https://evil.example" })).status).toBe(403);
    // http:// is another origin than PUBLIC_ORIGIN's https://.
    expect((await postChat(t, { Host: "app:3000", Origin: "https://chat.example.com:8443" })).status).toBe(
      403,
    );
  });
});

describe("bound elsewhere with neither PUBLIC_ORIGIN nor ALLOWED_HOSTS", () => {
  test("any Host and Origin is served, as before (a container behind a proxy works out of the box)", async () => {
    const t = build({ host: "0.0.0.0" });
    expect((await get(t, "/api/status", { Host: "rebound.example" })).status).toBe(200);
    expect((await postChat(t, { Host: "backend:3000", Origin: "https://chat.example.com" })).status).toBe(
      200,
    );
  });

  test("one WARN line at start says so; none on loopback or with PUBLIC_ORIGIN or ALLOWED_HOSTS", () => {
    const warningsFor = (config: Partial<AppConfig>) => {
      const { logger, lines } = memoryLogger();
      const base = defaultConfig();
      warnAboutDefaults({ ...base, ...config, surface: { ...base.surface, ...config.surface } }, logger);
      return lines.filter((line) => String(line.msg).includes("DNS rebinding"));
    };
    const open = warningsFor({ host: "0.0.0.0" });
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ level: "WARN", host: "0.0.0.0" });
    expect(warningsFor({})).toEqual([]);
    expect(warningsFor({ host: "::1" })).toEqual([]);
    const surface = defaultConfig().surface;
    expect(
      warningsFor({ host: "0.0.0.0", surface: { ...surface, publicOrigin: "https://c.example" } }),
    ).toEqual([]);
    expect(warningsFor({ host: "0.0.0.0", surface: { ...surface, allowedHosts: ["app"] } })).toEqual([]);
  });
});
