import { describe, expect, test } from "bun:test";
import { type TestApp, testApps } from "../support/test-app.ts";

const build = testApps();

describe("client identity", () => {
  test("a spoofed X-Forwarded-For / X-Real-IP from an untrusted peer does not change the identity", async () => {
    const t = build({ freeQueries: 1 });
    expect((await t.chat("q", "198.51.100.5")).status).toBe(200);
    for (const header of [{ "X-Forwarded-For": "192.0.2.99" }, { "X-Real-IP": "192.0.2.98" }] as Array<
      Record<string, string>
    >) {
      const res = await t.call(
        "/api/chat",
        {
          method: "POST",
          headers: { "Content-Type": "application/json", ...header },
          body: '{"message":"q"}',
        },
        "198.51.100.5",
      );
      expect(res.status).toBe(402);
    }
  });

  test("a trusted proxy's X-Forwarded-For is honoured (rightmost untrusted address)", async () => {
    const t = build({ freeQueries: 1, trustProxy: { kind: "list", cidrs: ["10.0.0.0/8"] } });
    const via = (xff: string) =>
      t.call("/api/status", { headers: { "X-Forwarded-For": xff } }, "10.0.0.2").then((r) => r.json());
    await t.call(
      "/api/chat",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": "192.0.2.10" },
        body: '{"message":"q"}',
      },
      "10.0.0.2",
    );
    expect((await via("192.0.2.10")).remaining).toBe(0);
    // A client-supplied left part cannot pick someone else's identity.
    expect((await via("192.0.2.77, 192.0.2.10")).remaining).toBe(0);
    expect((await via("192.0.2.11")).remaining).toBe(1);
    // The same header from a peer outside the trusted list is ignored.
    const direct = await t
      .call("/api/status", { headers: { "X-Forwarded-For": "192.0.2.10" } }, "198.51.100.200")
      .then((r) => r.json());
    expect(direct.remaining).toBe(1);
  });

  test("a hop count trusts exactly that many proxies; X-Real-IP is used when there is no X-Forwarded-For", async () => {
    const t = build({ freeQueries: 1, trustProxy: { kind: "hops", hops: 1 } });
    await t.call(
      "/api/chat",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Real-IP": "192.0.2.20" },
        body: '{"message":"q"}',
      },
      "10.1.1.1",
    );
    const viaXff = await t
      .call("/api/status", { headers: { "X-Forwarded-For": "1.1.1.1, 192.0.2.20" } }, "10.1.1.1")
      .then((r) => r.json());
    expect(viaXff.remaining).toBe(0);
  });

  test("IPv6 clients are counted per /64", async () => {
    const t = build({ freeQueries: 1 });
    expect((await t.chat("q", "2001:db8:1:2::1")).status).toBe(200);
    expect((await t.chat("q", "2001:db8:1:2:ffff::9")).status).toBe(402);
    expect((await t.chat("q", "2001:db8:1:3::1")).status).toBe(200);
  });
});

describe("CORS", () => {
  const origin = "https://docs.example.com";
  test("allowed origin gets CORS headers; others get none", async () => {
    const t = build({ allowedOrigins: [origin] });
    const ok = await t.call("/api/status", { headers: { Origin: origin } });
    expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
    const other = await t.call("/api/status", { headers: { Origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("status responses, built with the edge's headers, carry them on the first and later requests", async () => {
    const t = build({ allowedOrigins: ["https://docs.example.com"], freeQueries: 3 });
    const status = () => t.call("/api/status", { headers: { Origin: "https://docs.example.com" } });
    const ids = new Set<string | null>();
    for (const expected of [3, 3, 2]) {
      if (expected === 2) expect((await t.chat("q")).status).toBe(200);
      const res = await status();
      expect(res.headers.get("access-control-allow-origin")).toBe("https://docs.example.com");
      expect(res.headers.get("vary")).toBe("Origin");
      expect(res.headers.get("content-type")).toBe("application/json");
      ids.add(res.headers.get("x-request-id"));
      expect(await res.json()).toMatchObject({
        success: true,
        remaining: expected,
        rateLimit: { remaining: expected },
      });
    }
    expect(ids.size).toBe(3);
    expect(ids.has(null)).toBe(false);
  });

  test("preflight from an allowed origin -> 204 with methods and headers; from others -> 403", async () => {
    const t = build({ allowedOrigins: [origin] });
    const preflight = (from: string) =>
      t.call("/api/chat", {
        method: "OPTIONS",
        headers: {
          Origin: from,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "content-type",
        },
      });
    const ok = await preflight(origin);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
    expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
    expect(ok.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
    // Browser x402 clients of either dialect may send their payment and read the answers to it.
    expect(ok.headers.get("access-control-allow-headers")).toContain("X-Payment-Authorization");
    expect(ok.headers.get("access-control-allow-headers")).toContain("PAYMENT-SIGNATURE");
    const bad = await preflight("https://evil.example");
    expect(bad.status).toBe(403);
    expect(bad.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("no origins configured: no wildcard", async () => {
    const t = build();
    const res = await t.call("/api/status", { headers: { Origin: origin } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("protection rate limit", () => {
  test("over the per-second limit -> 429 with Retry-After, per identity and endpoint", async () => {
    let now = 1_700_000_000_500;
    const t = build({ protectionRps: 5, now: () => now });
    const burst = async (count: number) => {
      const responses = await Promise.all(Array.from({ length: count }, () => t.call("/api/status")));
      return responses;
    };
    const first = await burst(8);
    expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    for (const response of first.slice(5)) {
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual({
        success: false,
        error: "Too many requests, slow down",
        code: "RATE_LIMITED",
      });
    }
    // One WARN for the first request over the limit, not one per refusal.
    expect(t.lines.filter((line) => line.msg === "protection rate limit hit")).toHaveLength(1);
    expect(t.metrics.render()).toContain('ceiling_refusals_total{ceiling="protection-limit"} 3');
    // Another identity and another endpoint are not affected.
    expect((await t.call("/api/status", {}, "198.51.100.77")).status).toBe(200);
    expect((await t.call("/api/payment/info")).status).toBe(200);
    // Still the same second: still refused; the next second starts a fresh window.
    now += 499;
    expect((await burst(1)).map((r) => r.status)).toEqual([429]);
    now += 1;
    expect((await burst(6)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("edge responses", () => {
  test("unknown route -> 404 JSON with a request id", async () => {
    const t = build();
    const res = await t.call("/api/nope");
    expect(res.status).toBe(404);
    expect((await res.json()).success).toBe(false);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("GET on a POST route -> 404 JSON", async () => {
    const t = build();
    expect((await t.call("/api/chat")).status).toBe(404);
  });

  test("an incoming X-Request-Id is kept only behind a trusted proxy, and only when well-formed", async () => {
    const idOf = async (t: TestApp, sent: string, from?: string) =>
      (await t.call("/healthz", { headers: { "X-Request-Id": sent } }, from)).headers.get("x-request-id");
    const proxied = build({ trustProxy: { kind: "list", cidrs: ["10.0.0.0/8"] } });
    expect(await idOf(proxied, "abc-12345678", "10.0.0.2")).toBe("abc-12345678");
    expect(await idOf(proxied, "<script>", "10.0.0.2")).toMatch(/^[0-9a-z]{8}-[0-9a-z]+$/);
    // A client reaching us directly cannot choose its id, even with a proxy configured.
    expect(await idOf(proxied, "abc-12345678", "203.0.113.9")).toMatch(/^[0-9a-z]{8}-[0-9a-z]+$/);
    const direct = build();
    expect(await idOf(direct, "abc-12345678")).toMatch(/^[0-9a-z]{8}-[0-9a-z]+$/);
  });

  test("/healthz, /readyz, /metrics and /openapi.json", async () => {
    const t = build({ freeQueries: 0 });
    expect((await t.call("/healthz")).status).toBe(200);
    const ready = await t.call("/readyz");
    expect(ready.status).toBe(200);
    expect((await ready.json()).checks).toEqual({ store: "ok", chain: "ok", retrieval: "ok" });
    await t.chat("q");
    const metrics = await t.metricsText();
    expect(metrics).toContain('http_requests_total{route="/api/chat",method="POST",status="402"} 1');
    expect(metrics).toContain("chat_payment_required_total 1");
    expect(metrics).toContain("http_request_duration_seconds_bucket");
    const spec = await (await t.call("/openapi.json")).json();
    expect(Object.keys(spec.paths).sort()).toEqual([
      "/",
      "/.well-known/x402.json",
      "/admin",
      "/admin/console.js",
      "/admin/login",
      "/admin/logout",
      "/api/admin/export",
      "/api/admin/insights",
      "/api/chat",
      "/api/demo-wallet",
      "/api/feedback",
      "/api/payment",
      "/api/payment/info",
      "/api/session",
      "/api/session/challenge",
      "/api/session/sign-out",
      "/api/solana-rpc",
      "/api/status",
      "/healthz",
      "/llms-full.txt",
      "/llms.txt",
      "/mcp",
      "/metrics",
      "/readyz",
      "/widget-pay.js",
      "/widget.js",
    ]);
  });

  test("every request is logged as a JSON line with level and request id", async () => {
    const t = build();
    const res = await t.call("/api/status");
    const line = t.lines.find((l) => l.msg === "request" && l.requestId === res.headers.get("x-request-id"));
    expect(line).toMatchObject({ level: "INFO", status: 200, path: "/api/status" });
  });
});

describe("unexpected failures", () => {
  test("a defect -> 500 generic body with request id; the cause is logged, not echoed", async () => {
    const t = build();
    t.switches.dieInGeneration = true;
    const res = await t.chat("q");
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({
      success: false,
      error: "Internal server error",
      code: "INTERNAL_ERROR",
      requestId: res.headers.get("x-request-id"),
    });
    const logged = t.lines.find((l) => l.level === "ERROR" && l.msg === "unhandled error");
    expect(logged?.requestId).toBe(body.requestId);
    expect(JSON.stringify(body)).not.toContain("secret-cause-xyz");
    expect(String(logged?.cause)).toContain("secret-cause-xyz");
    expect((await (await t.call("/api/status")).json()).remaining).toBe(3);
  });
});

describe("X-Request-Id", () => {
  test("is on every response, whatever the status", async () => {
    const statuses = new Map<number, string | null>();
    const record = (res: Response) => statuses.set(res.status, res.headers.get("x-request-id"));
    const t = build({ freeQueries: 1, allowedOrigins: ["https://docs.example.com"] });
    record(await t.chat("q"));
    record(await t.chat(""));
    record(await t.chat("q"));
    record(await t.call("/nope"));
    record(
      await t.call("/api/chat", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" }),
    );
    record(
      await t.call("/api/chat", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "x".repeat(20_000),
      }),
    );
    record(
      await t.call("/api/chat", {
        method: "OPTIONS",
        headers: { Origin: "https://docs.example.com", "Access-Control-Request-Method": "POST" },
      }),
    );
    record(
      await t.call("/api/chat", {
        method: "OPTIONS",
        headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
      }),
    );
    t.switches.failRetrieval = true;
    record(await t.call("/api/payment/info"));
    const dying = build();
    dying.switches.dieInGeneration = true;
    record(await dying.chat("q"));
    const limited = build({ protectionRps: 1, now: () => 1_700_000_000_000 });
    await limited.call("/api/status");
    record(await limited.call("/api/status"));
    expect([...statuses.keys()].sort()).toEqual([200, 204, 400, 402, 403, 404, 413, 415, 429, 500]);
    for (const id of statuses.values()) expect(id).toMatch(/^[0-9a-z]{8}-[0-9a-z]+$/);
  });
});
