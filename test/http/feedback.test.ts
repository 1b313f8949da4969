/**
 * POST /api/feedback on the real app: votes on answers the caller received (JSON and streamed),
 * counted in /metrics; everything else refused with a clear status.
 */
import { describe, expect, test } from "bun:test";
import { type TestApp, testApps } from "../support/test-app.ts";

const build = testApps();

const vote = (t: TestApp, body: unknown, from?: string) =>
  t.call(
    "/api/feedback",
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
    from,
  );

const answerIdOf = async (t: TestApp, from?: string): Promise<string> => {
  const body = await (await t.chat("How do I write a file?", from)).json();
  expect(body.answerId).toMatch(/^[0-9a-f-]{36}$/);
  return body.answerId;
};

const metric = (text: string, line: string) =>
  Number(new RegExp(`^${line.replace(/[{}"]/g, "\\$&")} (\\d+)$`, "m").exec(text)?.[1] ?? "NaN");

describe("POST /api/feedback", () => {
  test("a vote on one's own answer is kept and counted; a second vote replaces the first", async () => {
    const t = build();
    const answerId = await answerIdOf(t);
    const up = await vote(t, { answerId, vote: "up" });
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ success: true, answerId, vote: "up" });
    const down = await vote(t, { answerId, vote: "down", comment: "  It missed the flags.  " });
    expect(down.status).toBe(200);
    const metrics = await t.metricsText();
    expect(metric(metrics, 'feedback_total{vote="up"}')).toBe(1);
    expect(metric(metrics, 'feedback_total{vote="down"}')).toBe(1);
  });

  test("every answer gets its own id, streamed answers too (in the done event)", async () => {
    const t = build();
    const first = await answerIdOf(t);
    const res = await t.call("/api/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ message: "And a directory?" }),
    });
    const done = /event: done\ndata: (.*)\n/.exec(await res.text())?.[1];
    const streamed = JSON.parse(done ?? "{}").answerId;
    expect(streamed).toMatch(/^[0-9a-f-]{36}$/);
    expect(streamed).not.toBe(first);
    expect((await vote(t, { answerId: streamed, vote: "up" })).status).toBe(200);
  });

  test("someone else's answer, or an id never issued -> 404, nothing counted", async () => {
    const t = build();
    const answerId = await answerIdOf(t, "198.51.100.1");
    const other = await vote(t, { answerId, vote: "down" }, "198.51.100.2");
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ success: false, code: "UNKNOWN_ANSWER" });
    const invented = await vote(t, { answerId: crypto.randomUUID(), vote: "up" }, "198.51.100.1");
    expect(invented.status).toBe(404);
    expect(metric(await t.metricsText(), "feedback_total")).toBe(0);
  });

  test.each([
    ["no vote", { answerId: "00000000-0000-4000-8000-000000000000" }, "vote"],
    ["an unknown vote", { answerId: "00000000-0000-4000-8000-000000000000", vote: "meh" }, "vote"],
    ["a vote of the wrong type", { answerId: "00000000-0000-4000-8000-000000000000", vote: 1 }, "vote"],
    ["no answerId", { vote: "up" }, "answerId"],
    ["a malformed answerId", { answerId: "../../etc/passwd", vote: "up" }, "answerId"],
    [
      "a comment over 1000 characters",
      { answerId: "00000000-0000-4000-8000-000000000000", vote: "up", comment: "x".repeat(1001) },
      "comment",
    ],
    [
      "a comment of the wrong type",
      { answerId: "00000000-0000-4000-8000-000000000000", vote: "up", comment: {} },
      "comment",
    ],
  ])("%s -> 400 naming the field", async (_name, body, field) => {
    const t = build();
    const res = await vote(t, body);
    expect(res.status).toBe(400);
    const reply = await res.json();
    expect(reply).toMatchObject({ success: false, error: "Invalid feedback", code: "INVALID_FEEDBACK" });
    expect(reply.details).toContain(field);
  });

  test("not JSON, not an object, or the wrong Content-Type -> 400/415", async () => {
    const t = build();
    const post = (body: string, type = "application/json") =>
      t.call("/api/feedback", { method: "POST", headers: { "Content-Type": type }, body });
    expect((await post("{nope")).status).toBe(400);
    expect((await post("[1,2]")).status).toBe(400);
    expect((await post("null")).status).toBe(400);
    expect((await post('{"vote":"up"}', "text/plain")).status).toBe(415);
    expect((await t.call("/api/feedback")).status).toBe(404);
  });
});
