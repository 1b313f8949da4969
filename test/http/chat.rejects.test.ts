import { describe, expect, test } from "bun:test";
import { type TestApp, testApps } from "../support/test-app.ts";

const build = testApps();

const post = (t: TestApp, body: string, type = "application/json") =>
  t.call("/api/chat", { method: "POST", headers: { "Content-Type": type }, body });

describe("POST /api/chat bad input", () => {
  test.each([[""], ["   "], ["\n\t"]])(
    "empty message %j -> 400 Message cannot be empty, nothing charged",
    async (message) => {
      const t = build({ freeQueries: 1 });
      const res = await t.chat(message);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, error: "Message cannot be empty" });
      expect((await (await t.call("/api/status")).json()).remaining).toBe(1);
    },
  );

  test("missing message is an empty message", async () => {
    const t = build();
    const res = await post(t, "{}");
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Message cannot be empty");
  });

  test("empty message is refused before the quota is checked (even when exhausted)", async () => {
    const t = build({ freeQueries: 0 });
    expect((await t.chat("")).status).toBe(400);
    expect((await t.chat("real question")).status).toBe(402);
  });

  test.each([
    ['{"message": 42}', "message must be a string"],
    ['{"message": ["a"]}', "message must be a string"],
    ['{"message": "hi", "conversationId": 5}', "conversationId must be a string"],
    ['{"message": "hi", "conversationId": "bad id with spaces"}', "conversationId must be 1-128 characters"],
    ['{"message": "hi", "stream": "yes"}', "stream must be a boolean"],
  ])("wrong field types %s -> 400", async (body, error) => {
    const t = build();
    const res = await post(t, body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toStartWith(error);
  });

  test.each([["not json"], ['{"message": "unterminated'], [""]])("invalid JSON %j -> 400", async (body) => {
    const t = build();
    const res = await post(t, body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Request body is not valid JSON");
  });

  test.each([["[]"], ["null"], ['"text"'], ["3"]])("non-object JSON %s -> 400", async (body) => {
    const t = build();
    expect((await post(t, body)).status).toBe(400);
  });

  test("wrong content type -> 415", async () => {
    const t = build();
    const res = await post(t, '{"message":"hi"}', "text/plain");
    expect(res.status).toBe(415);
  });

  test("body over 16 KiB -> 413", async () => {
    const t = build();
    const res = await post(t, JSON.stringify({ message: "x".repeat(17 * 1024) }));
    expect(res.status).toBe(413);
  });

  test("message over 2000 characters -> 400, nothing charged", async () => {
    const t = build({ freeQueries: 1 });
    const res = await t.chat("y".repeat(2001));
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("MESSAGE_TOO_LONG");
    expect((await (await t.call("/api/status")).json()).remaining).toBe(1);
  });

  test("paid daily cap reached -> 429 with Retry-After", async () => {
    const t = build({ freeQueries: 0, paidDailyCap: 1 });
    // Grant paid credits through the store, as a verified payment would.
    const { PaymentStore } = await import("../../core/ports/payment-store.ts");
    const Effect = await import("effect/Effect");
    await t.runtime.runPromise(
      Effect.flatMap(PaymentStore, (s) => s.claim("sig-for-cap-test", "203.0.113.7", 10, Date.now())),
    );
    expect((await t.chat("q")).status).toBe(200);
    const res = await t.chat("q");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = await res.json();
    expect(body.code).toBe("PAID_DAILY_CAP_REACHED");
    expect(body.error).toContain("Daily limit of 1 paid queries");
  });
});
