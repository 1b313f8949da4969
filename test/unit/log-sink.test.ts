import { describe, expect, test } from "bun:test";
import { batchingSink, directSink } from "../../src/observability/log-sink.ts";

const recorder = () => {
  const writes: string[] = [];
  return { writes, write: (text: string) => void writes.push(text) };
};

describe("batching log sink", () => {
  test("batched lines wait, then go out together in order", async () => {
    const { writes, write } = recorder();
    const sink = batchingSink(write, { maxDelayMs: 5 });
    sink.batched("a");
    sink.batched("b");
    expect(writes).toEqual([]);
    await Bun.sleep(40);
    expect(writes).toEqual(["a\nb"]);
  });

  test("an immediate line first writes what is pending, so order is kept", () => {
    const { writes, write } = recorder();
    const sink = batchingSink(write, { maxDelayMs: 10_000 });
    sink.batched("request 1");
    sink.immediate("error");
    sink.batched("request 2");
    expect(writes).toEqual(["request 1", "error"]);
    sink.flush();
    expect(writes).toEqual(["request 1", "error", "request 2"]);
  });

  test("a full batch is written at once", () => {
    const { writes, write } = recorder();
    const sink = batchingSink(write, { maxDelayMs: 10_000, maxLines: 2 });
    sink.batched("12345");
    expect(writes).toEqual([]);
    sink.batched("67890");
    expect(writes).toEqual(["12345\n67890"]);
  });

  test("flush with nothing pending writes nothing; after a flush the timer writes nothing twice", async () => {
    const { writes, write } = recorder();
    const sink = batchingSink(write, { maxDelayMs: 5 });
    sink.flush();
    sink.batched("x");
    sink.flush();
    await Bun.sleep(30);
    expect(writes).toEqual(["x"]);
  });

  test("the direct sink writes every line at once", () => {
    const { writes, write } = recorder();
    const sink = directSink(write);
    sink.batched("a");
    sink.immediate("b");
    expect(writes).toEqual(["a", "b"]);
  });
});
