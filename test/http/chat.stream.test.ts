import { describe, expect, test } from "bun:test";
import { waitFor } from "../support/free-port.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

const build = testApps();

/** Parses an SSE body into [event, data] pairs. */
const events = (text: string) =>
  text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return [event, JSON.parse(data ?? "null")] as const;
    });

const streamChat = (t: TestApp, body: object, accept = "text/event-stream") =>
  t.call("/api/chat", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: accept },
    body: JSON.stringify(body),
  });

describe("POST /api/chat as Server-Sent Events", () => {
  test("sources first, then deltas, then done with tokensUsed and rateLimit; proxy-safe headers", async () => {
    const t = build();
    const res = await streamChat(t, { message: "How do I write a file?" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    expect(res.headers.get("cache-control")).toContain("no-transform");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const list = events(await res.text());
    expect(list[0]?.[0]).toBe("sources");
    expect(list[0]?.[1].sources).toHaveLength(5);
    const deltas = list.filter(([name]) => name === "delta").map(([, data]) => data.text);
    expect(deltas.join("")).toContain("[1]");
    const done = list.at(-1);
    expect(done?.[0]).toBe("done");
    expect(done?.[1]).toMatchObject({ tokensUsed: 42, rateLimit: { remaining: 2, requiresPayment: false } });
  });

  test("a cross-origin stream from an allowed origin carries the CORS headers", async () => {
    const t = build({ allowedOrigins: ["https://docs.example.com"] });
    const res = await t.call("/api/chat", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "text/event-stream",
        Origin: "https://docs.example.com",
      },
      body: JSON.stringify({ message: "q" }),
    });
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    expect(res.headers.get("access-control-allow-origin")).toBe("https://docs.example.com");
    await res.text();
  });

  test("stream: true in the body also streams", async () => {
    const t = build();
    const res = await streamChat(t, { message: "q", stream: true }, "application/json");
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    // Read to the end: the app is disposed after the test, and a stream still running then fails.
    expect(await res.text()).toContain("event: done");
  });

  test("errors before the stream starts are plain JSON (400, 402)", async () => {
    const t = build({ freeQueries: 0 });
    const empty = await streamChat(t, { message: " " });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toBe("Message cannot be empty");
    const exhausted = await streamChat(t, { message: "q" });
    expect(exhausted.status).toBe(402);
    expect((await exhausted.json()).code).toBe("PAYMENT_REQUIRED");
  });

  test("a generation failure mid-stream ends with an error event and charges nothing", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.failGeneration = true;
    const res = await streamChat(t, { message: "q" });
    const list = events(await res.text());
    expect(list.at(-1)?.[0]).toBe("error");
    expect((await (await t.call("/api/status")).json()).remaining).toBe(1);
  });
});

describe("defects while streaming", () => {
  test("a defect after some text ends the open stream with an error event: request id, no cause, logged", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.dieInGeneration = true;
    const res = await streamChat(t, { message: "q" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    expect(text).not.toContain("secret-cause-xyz");
    const list = events(text);
    expect(list.map(([event]) => event)).toEqual(["sources", "delta", "error"]);
    expect(list.at(-1)).toEqual([
      "error",
      {
        success: false,
        error: "Internal server error",
        code: "INTERNAL_ERROR",
        requestId: res.headers.get("x-request-id"),
      },
    ]);
    const logged = t.lines.find((line) => line.msg === "stream failed");
    expect(logged).toMatchObject({ requestId: res.headers.get("x-request-id") });
    expect(String(logged?.cause)).toContain("secret-cause-xyz");
  });
});

describe("hanging up mid-stream", () => {
  /** Reads the SSE body until `until` appears, then hangs up. */
  const readUntilThenHangUp = async (res: Response, until: string) => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(until)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    await reader.cancel();
    return text;
  };
  const remaining = async (t: TestApp) => (await (await t.call("/api/status")).json()).remaining;

  test("after answer text was delivered, hanging up still charges the query", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.generationDelayMs = 50;
    const text = await readUntilThenHangUp(await streamChat(t, { message: "q" }), "event: delta");
    expect(text).toContain("event: delta");
    expect(text).not.toContain("event: done");
    await waitFor(async () => (await remaining(t)) === 0, 2000, "the hung-up answer to be charged");
    expect(await remaining(t)).toBe(0);
    expect((await streamChat(t, { message: "again" })).status).toBe(402);
  });

  test("hanging up before any answer text costs nothing", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.generationDelayMs = 50;
    const text = await readUntilThenHangUp(await streamChat(t, { message: "q" }), "event: sources");
    expect(text).not.toContain("event: delta");
    // The question was held while the answer was prepared: it comes back once the hang-up is seen.
    await waitFor(async () => (await remaining(t)) === 1, 2000, "the hung-up question to be released");
    expect(await remaining(t)).toBe(1);
    // And it is really there to spend: the next question is answered, then nothing is left.
    expect((await t.chat("again")).status).toBe(200);
    expect(await remaining(t)).toBe(0);
  });
});

describe("declined answers stream for free", () => {
  test("nothing found: the honest no-answer text with done, charging nothing", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.noResults = true;
    const res = await streamChat(t, { message: "unknown topic" });
    expect(res.status).toBe(200);
    const list = events(await res.text());
    expect(list.map(([name]) => name)).toEqual(["sources", "delta", "done"]);
    expect(list[1]?.[1].text).toContain("does not seem to cover");
    expect(list[2]?.[1]).toMatchObject({ declined: true, rateLimit: { remaining: 1 } });
  });

  test("off-topic (the relevance decision): declined before the model, charging nothing", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.offTopic = true;
    t.switches.failGeneration = true;
    const list = events(await (await streamChat(t, { message: "weather in Paris?" })).text());
    expect(list.map(([name]) => name)).toEqual(["sources", "delta", "done"]);
    expect(list[0]?.[1].sources).toHaveLength(5);
    expect(list[2]?.[1]).toMatchObject({ success: true, declined: true, rateLimit: { remaining: 1 } });
  });

  test("the model says the docs do not cover it: the text streams, the query is given back", async () => {
    const t = build({ freeQueries: 1 });
    t.switches.declineInGeneration = true;
    for (let i = 0; i < 2; i++) {
      const list = events(await (await streamChat(t, { message: "How do I write a file?" })).text());
      expect(list.map(([name]) => name)).toEqual(["sources", "delta", "done"]);
      expect(list[1]?.[1].text).toBe("The documentation does not cover this.");
      expect(list[2]?.[1]).toMatchObject({ declined: true, tokensUsed: 17, rateLimit: { remaining: 1 } });
    }
    t.switches.declineInGeneration = false;
    const charged = events(await (await streamChat(t, { message: "How do I write a file?" })).text());
    expect(charged.at(-1)?.[1]).toMatchObject({ declined: false, rateLimit: { remaining: 0 } });
  });
});
