/**
 * GET /api/status (and /api/payment/info) of the default site is answered by the edge itself once the store's quick
 * reads are resolved (status.ts statusFastPath): the answer must be the router's, byte for
 * byte, in every state, and anything the fast path does not cover (a session) still reaches
 * the route.
 */
import { describe, expect, test } from "bun:test";
import { statusFastPath, statusReads } from "../../src/http/routes/status.ts";
import { testApps } from "../support/test-app.ts";

const build = testApps();
const headersOf = (response: Response) =>
  [...response.headers.entries()].filter(([name]) => name !== "x-request-id").sort();

describe("the status route's fast path", () => {
  test("answers as the router does, for a fresh client, a client with questions spent and one out of them", async () => {
    const t = build({ freeQueries: 2, allowedOrigins: ["https://docs.example"] });
    const from = "198.51.100.61";
    const init = { headers: { Origin: "https://docs.example" } };
    // The first request resolves the reads through the router; the second is the fast path's.
    const first = await t.call("/api/status", init, from);
    const second = await t.call("/api/status", init, from);
    expect(second.status).toBe(first.status);
    expect(await second.text()).toBe(await first.text());
    expect(headersOf(second)).toEqual(headersOf(first));
    for (let i = 0; i < 2; i++) expect((await t.chat("a question", from)).status).toBe(200);
    const spent = await (await t.call("/api/status", {}, from)).json();
    expect(spent).toMatchObject({ remaining: 0, requiresPayment: true, free: 0 });
  });

  test("GET /api/payment/info: the fast answer is the router's, byte for byte", async () => {
    const t = build({ allowedOrigins: ["https://docs.example"] });
    const init = { headers: { Origin: "https://docs.example" } };
    const first = await t.call("/api/payment/info", init, "198.51.100.62");
    const second = await t.call("/api/payment/info", init, "198.51.100.62");
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(await first.text());
    expect(headersOf(second)).toEqual(headersOf(first));
  });

  test("is taken only once the reads are resolved, and never with a session", async () => {
    const shared = statusReads();
    const fast = statusFastPath(shared);
    const facts = { requestId: "r-1234567890", corsHeaders: undefined, identity: "ip:203.0.113.9" } as never;
    expect(fast(new Request("http://localhost/api/status"), facts)).toBeUndefined();
    shared.quick = {
      spenderView: () => ({ remaining: 3, resetAt: 1, requiresPayment: false, free: 3, paid: 0 }),
    } as never;
    const answered = fast(new Request("http://localhost/api/status"), facts) as Response;
    expect(answered.headers.get("x-request-id")).toBe("r-1234567890");
    expect(await answered.json()).toMatchObject({ success: true, remaining: 3 });
    const withSession = new Request("http://localhost/api/status", { headers: { "X-Wallet-Session": "t" } });
    expect(fast(withSession, facts)).toBeUndefined();
  });

  test("a session still reaches the route (its refusals are the route's)", async () => {
    const t = build();
    await t.call("/api/status");
    const response = await t.call("/api/status", { headers: { "X-Wallet-Session": "not-a-token" } });
    expect(response.status).toBe(401);
  });
});
