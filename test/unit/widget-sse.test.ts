/**
 * The widget's SSE reader (src/widget/sse.ts) on the service's own event text, cut into chunks at
 * every byte position (inside multibyte characters, inside event names and data, between the two
 * newlines of a boundary) and into single bytes: every event arrives whole and in order.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { readServerEvents, type ServerEvent } from "../../src/widget/sse.ts";

const EVENTS: ReadonlyArray<ServerEvent> = [
  { event: "sources", data: JSON.stringify({ sources: [{ number: 1, title: "Café guide ☕" }] }) },
  { event: "delta", data: JSON.stringify({ text: "Unicode: 日本語 🎉 " }) },
  { event: "delta", data: JSON.stringify({ text: "Ω≈ç√ é [1]" }) },
  { event: "done", data: JSON.stringify({ success: true, tokensUsed: 12 }) },
];
const WIRE = new TextEncoder().encode(
  EVENTS.map(({ event, data }) => `event: ${event}\ndata: ${data}\n\n`).join(""),
);

const streamOf = (chunks: ReadonlyArray<Uint8Array>) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

const read = async (chunks: ReadonlyArray<Uint8Array>) => {
  const seen: ServerEvent[] = [];
  await readServerEvents(streamOf(chunks), (event) => seen.push(event));
  return seen;
};

describe("widget SSE reader", () => {
  test("one chunk, and two chunks cut at every byte position", async () => {
    expect(await read([WIRE])).toEqual([...EVENTS]);
    for (let cut = 1; cut < WIRE.length; cut++)
      expect(await read([WIRE.slice(0, cut), WIRE.slice(cut)])).toEqual([...EVENTS]);
  });

  test("one byte at a time", async () => {
    expect(await read([...WIRE].map((byte) => Uint8Array.of(byte)))).toEqual([...EVENTS]);
  });

  test("any cutting into chunks", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: WIRE.length - 1 }), { maxLength: 40 }),
        async (cuts) => {
          const bounds = [0, ...cuts.sort((a, b) => a - b), WIRE.length];
          const chunks = bounds.slice(1).map((end, i) => WIRE.slice(bounds[i], end));
          expect(await read(chunks)).toEqual([...EVENTS]);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a last event without its closing blank line, and CRLF line ends, still arrive", async () => {
    const crlf = new TextEncoder().encode('event: delta\r\ndata: {"text":"a"}\r\n\r\nevent: done\ndata: {}');
    expect(await read([crlf])).toEqual([
      { event: "delta", data: '{"text":"a"}' },
      { event: "done", data: "{}" },
    ]);
  });
});
