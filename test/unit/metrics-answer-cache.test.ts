/** /metrics reports the answer cache: hits, misses, rescues, and the hit ratio itself. */
import { describe, expect, test } from "bun:test";
import { makeMetrics } from "../../src/observability/metrics.ts";

const line = (text: string, name: string) => text.split("\n").find((l) => l.startsWith(`${name} `));

describe("answer cache metrics", () => {
  test("the hit ratio is 0 before any cacheable question, then hits / (hits + misses)", () => {
    const metrics = makeMetrics();
    expect(line(metrics.render(), "answer_cache_hit_ratio")).toBe("answer_cache_hit_ratio 0");
    metrics.count("answer_cache_misses_total");
    metrics.count("answer_cache_hits_total");
    metrics.count("answer_cache_hits_total");
    metrics.count("answer_cache_hits_total");
    metrics.count("answer_cache_rescues_total");
    const text = metrics.render();
    expect(line(text, "answer_cache_hits_total")).toBe("answer_cache_hits_total 3");
    expect(line(text, "answer_cache_rescues_total")).toBe("answer_cache_rescues_total 1");
    expect(line(text, "answer_cache_hit_ratio")).toBe("answer_cache_hit_ratio 0.75");
    expect(text).toContain("# TYPE answer_cache_hit_ratio gauge");
  });
});
