import { describe, expect, test } from "bun:test";
import { testApps } from "../support/test-app.ts";

const build = testApps();

describe("POST /api/chat", () => {
  test("answers with response, five numbered sources, tokensUsed and the caller's rateLimit", async () => {
    const t = build();
    const res = await t.chat("How do I write a file?");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.response).toContain("[1]");
    expect(body.tokensUsed).toBe(42);
    expect(body.sources).toHaveLength(5);
    expect(body.sources[0]).toMatchObject({
      number: 1,
      id: "doc-1",
      title: "Doc 1",
      source: "doc-1.md",
      heading: "Doc 1 > Section",
    });
    expect(body.sources[0].url).toStartWith("https://");
    expect(typeof body.sources[0].snippet).toBe("string");
    expect(body.rateLimit.remaining).toBe(2);
    expect(body.rateLimit.requiresPayment).toBe(false);
    expect(body.rateLimit.resetAt % 86_400_000).toBe(0);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("counts one query per answer until the free quota is gone, then 402 with how to pay", async () => {
    const t = build({ freeQueries: 2 });
    expect((await t.chat("q1")).status).toBe(200);
    const second = await (await t.chat("q2")).json();
    expect(second.rateLimit).toMatchObject({ remaining: 0, requiresPayment: true });
    const res = await t.chat("q3");
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.success).toBe(false);
    expect(body.code).toBe("PAYMENT_REQUIRED");
    expect(body.rateLimit).toMatchObject({ remaining: 0, requiresPayment: true });
    expect(body.payment).toMatchObject({ token: "USDC", network: "devnet", pricePerQuery: "0.001" });
    expect(body.payment.instructions.length).toBeGreaterThanOrEqual(4);
    expect(body.payment.memo).toStartWith("docschat:");
  });

  test("each client has its own quota", async () => {
    const t = build({ freeQueries: 1 });
    expect((await t.chat("q", "198.51.100.1")).status).toBe(200);
    expect((await t.chat("q", "198.51.100.1")).status).toBe(402);
    expect((await t.chat("q", "198.51.100.2")).status).toBe(200);
  });

  test("a failed retrieval or generation is 503 and costs nothing", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.failRetrieval = true;
    const retrieval = await t.chat("q");
    expect(retrieval.status).toBe(503);
    expect((await retrieval.json()).code).toBe("RETRIEVAL_FAILED");
    t.switches.failRetrieval = false;
    t.switches.failGeneration = true;
    expect((await t.chat("q")).status).toBe(503);
    t.switches.failGeneration = false;
    const status = await (await t.call("/api/status")).json();
    expect(status.remaining).toBe(1);
    expect((await t.chat("q")).status).toBe(200);
  });

  test("when the docs have nothing at all, the answer says so and charges nothing", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.noResults = true;
    const res = await t.chat("What is the airspeed of a swallow?");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.sources).toEqual([]);
    expect(body.tokensUsed).toBe(0);
    expect(body.declined).toBe(true);
    expect(body.response).toContain("does not seem to cover");
    expect(body.rateLimit.remaining).toBe(1);
  });

  test("an off-topic question is declined for free, again and again, and the model is never asked", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.offTopic = true;
    t.switches.failGeneration = true;
    for (let i = 0; i < 3; i++) {
      const res = await t.chat("What's the weather in Paris?");
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ success: true, declined: true, tokensUsed: 0 });
      // The closest sections still go with the decline, so the reader can look for themselves.
      expect(body.sources).toHaveLength(5);
      expect(body.rateLimit).toMatchObject({ remaining: 1, requiresPayment: false });
    }
    t.switches.offTopic = false;
    t.switches.failGeneration = false;
    const answered = await (await t.chat("How do I write a file?")).json();
    expect(answered).toMatchObject({ declined: false, rateLimit: { remaining: 0 } });
  });

  test("a follow-up in the same conversation is retrieved together with the previous question", async () => {
    const t = build();
    await t.chat("How do I write a file with fs?", undefined, { conversationId: "c-1" });
    await t.chat("and how do I delete it?", undefined, { conversationId: "c-1" });
    expect(t.switches.retrieved[1]).toBe("How do I write a file with fs?\nand how do I delete it?");
    await t.chat("and how do I delete it?", "198.51.100.9", { conversationId: "c-1" });
    expect(t.switches.retrieved[2]).toBe("and how do I delete it?");
  });
});

describe("GET /api/status", () => {
  test("returns the rateLimit fields, never 402", async () => {
    const t = build({ freeQueries: 1 });
    const fresh = await (await t.call("/api/status")).json();
    expect(fresh).toMatchObject({ success: true, remaining: 1, requiresPayment: false });
    expect(fresh.rateLimit).toEqual({
      remaining: 1,
      resetAt: fresh.resetAt,
      requiresPayment: false,
      free: 1,
      paid: 0,
    });
    await t.chat("q");
    const res = await t.call("/api/status");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ remaining: 0, requiresPayment: true });
  });
});
