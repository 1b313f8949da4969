/**
 * The facilitator's door (/x402/*, whose /settle spends the fee payer's SOL): wrong bearer tokens
 * are counted per (client, token), logged as a WARN without the token, and lock that token out
 * from that client (429 with Retry-After) after five, never the right one; the protection limit
 * covers /x402/* as /api. The global ceiling: test/unit/partner-door.test.ts.
 */

import { describe, expect, test } from "bun:test";
import { testApps } from "../support/test-app.ts";
import { offlineFacilitator } from "../support/x402-v2.ts";

const TOKEN = "facilitator-token-0123456789";
const WRONG = "facilitator-guess-0123456789";
const build = testApps();

const facilitator = () => offlineFacilitator();

const supported = (t: ReturnType<typeof build>, token: string | undefined, from?: string) =>
  t.call(
    "/x402/supported",
    token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
    from,
  );

describe("the facilitator token", () => {
  test("five of one wrong token lock that token out for 15 minutes; the right one from the same client still passes", async () => {
    const t = build({ facilitator: await facilitator(), facilitatorToken: TOKEN });
    for (let i = 0; i < 5; i++) expect((await supported(t, WRONG)).status).toBe(401);
    const locked = await supported(t, WRONG);
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("900");
    expect(await locked.json()).toEqual({
      error: "Too many wrong facilitator tokens: try again later",
      code: "TOO_MANY_ATTEMPTS",
    });
    // A partner behind the same address, with the right token.
    expect((await supported(t, TOKEN)).status).toBe(200);
    // Another wrong token from that address is counted for itself, not locked by the first.
    expect((await supported(t, `${WRONG}-other`)).status).toBe(401);
    expect((await supported(t, WRONG)).status).toBe(429);
    const metrics = t.metrics.render();
    expect(metrics).toContain("x402_facilitator_auth_failures_total 6");
    expect(metrics).toContain("x402_facilitator_auth_locked_total 2");
  });

  test("each wrong token is a WARN line naming the client, never the token; no token is not a guess", async () => {
    const t = build({ facilitator: await facilitator(), facilitatorToken: TOKEN });
    for (let i = 0; i < 6; i++) expect((await supported(t, undefined)).status).toBe(401);
    expect(t.lines.filter((line) => line.msg === "wrong x402 facilitator token")).toHaveLength(0);
    await supported(t, WRONG);
    const warnings = t.lines.filter((line) => line.msg === "wrong x402 facilitator token");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: "WARN", identity: "203.0.113.7" });
    expect(JSON.stringify(t.lines)).not.toContain(WRONG);
    expect(JSON.stringify(t.lines)).not.toContain(TOKEN);
  });

  test("the protection limit covers /x402/* like /api/*", async () => {
    let now = 1_700_000_000_000;
    const t = build({
      facilitator: await facilitator(),
      facilitatorToken: TOKEN,
      protectionRps: 3,
      now: () => now,
    });
    const burst = async () => {
      const responses = await Promise.all(Array.from({ length: 5 }, () => supported(t, TOKEN)));
      return responses.map((response) => response.status);
    };
    expect(await burst()).toEqual([200, 200, 200, 429, 429]);
    now += 1000;
    expect(await burst()).toEqual([200, 200, 200, 429, 429]);
  });
});

describe("the facilitator's spend is in the service's own budgets", () => {
  test("below the fee payer's floor (the one that withdraws our own v2 offers) verify and settle are refused", async () => {
    const t = build({
      facilitator: await offlineFacilitator({ lamports: 999n, floor: 1_000n }),
      facilitatorToken: TOKEN,
    });
    const post = (path: string) =>
      t.call(`/x402/${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: "{}",
      });
    expect(await (await post("verify")).json()).toEqual({
      isValid: false,
      invalidReason: "exact-sponsor-unavailable",
    });
    expect(await (await post("settle")).json()).toMatchObject({
      success: false,
      errorReason: "exact-sponsor-unavailable",
    });
  });
});
