import { describe, expect, test } from "bun:test";
import { outputCollector } from "../support/output-collector.ts";

const line = (i: number) => `${JSON.stringify({ level: "INFO", msg: "request", i })}\n`;

describe("the service helper's output", () => {
  test("by default keeps everything and parses JSON lines split across chunks", () => {
    const collected = outputCollector(undefined);
    const text = `${line(1)}not json\n${line(2)}`;
    collected.onStdout(text.slice(0, 20));
    collected.onStdout(text.slice(20));
    collected.onStderr("warning: on stderr\n");
    expect(collected.logs()).toEqual([
      { level: "INFO", msg: "request", i: 1 },
      { level: "INFO", msg: "request", i: 2 },
    ]);
    expect(collected.output()).toBe(`${text}warning: on stderr\n`);
  });

  test("with a tail, a long run keeps only its last characters and no parsed lines", () => {
    const collected = outputCollector(1000);
    for (let i = 0; i < 100_000; i++) collected.onStdout(line(i));
    collected.onStderr("the last words\n");
    const output = collected.output();
    expect(output.length).toBe(1000);
    expect(output.endsWith(`${line(99_999)}the last words\n`)).toBe(true);
    expect(() => collected.logs()).toThrow("log lines are not kept");
  });

  test("with a tail, a short output is kept whole", () => {
    const collected = outputCollector(1000);
    collected.onStdout(line(1));
    expect(collected.output()).toBe(line(1));
  });
});
