/** Retry decisions and provider-error reading for the Groq adapter. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "groq-sdk";
import { DEFAULT_RETRY } from "../../adapters/llm-groq/index.ts";
import { classify, type ProviderFailure, retryAfterMs } from "../../adapters/llm-groq/provider-failure.ts";
import { retryDelay } from "../../adapters/shared/retry.ts";

const failure = (over: Partial<ProviderFailure> = {}): ProviderFailure => ({
  kind: "server",
  retryable: true,
  retryAfterMs: undefined,
  summary: "x",
  ...over,
});
const statusError = (status: number, headers: Record<string, string> = {}) =>
  APIError.generate(status, { error: { message: "m" } }, undefined, new Headers(headers));

describe("retryDelay", () => {
  test("stops for final failures and once the retries are spent", () => {
    expect(retryDelay(DEFAULT_RETRY, 0, failure({ retryable: false }), 0.5)).toBeUndefined();
    expect(retryDelay(DEFAULT_RETRY, DEFAULT_RETRY.retries, failure(), 0.5)).toBeUndefined();
    expect(retryDelay(DEFAULT_RETRY, DEFAULT_RETRY.retries - 1, failure(), 0.5)).toBeDefined();
  });

  test("a retry-after beyond the longest wait means give up now; a short one is honoured", () => {
    expect(retryDelay(DEFAULT_RETRY, 0, failure({ retryAfterMs: 60_000 }), 0.5)).toBeUndefined();
    expect(retryDelay(DEFAULT_RETRY, 0, failure({ retryAfterMs: 1500 }), 0)).toBe(1500);
  });

  test("grows exponentially with jitter inside [ceiling/2, ceiling], never past the cap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (retry, random) => {
          const policy = { retries: 20, baseDelayMs: 100, maxDelayMs: 2000 };
          const delay = retryDelay(policy, retry, failure(), random) ?? -1;
          const ceiling = Math.min(2000, 100 * 2 ** retry);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });
});

describe("classify", () => {
  test("429 and 5xx are retried; 4xx, timeouts and parse errors are not", () => {
    expect(classify(statusError(429, { "retry-after": "2" }), 0)).toMatchObject({
      kind: "rate-limited",
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(classify(statusError(502), 0)).toMatchObject({ kind: "server", retryable: true });
    expect(classify(statusError(401), 0)).toMatchObject({ kind: "rejected", retryable: false });
    expect(classify(statusError(404), 0)).toMatchObject({ kind: "rejected", retryable: false });
    expect(classify(new APIConnectionError({ message: "refused" }), 0)).toMatchObject({ retryable: true });
    expect(classify(new APIConnectionTimeoutError(), 0)).toMatchObject({ kind: "timeout", retryable: false });
    expect(classify(new SyntaxError("bad json"), 0)).toMatchObject({ kind: "malformed", retryable: false });
  });

  test("summaries never carry the provider's message text", () => {
    const error = APIError.generate(
      500,
      { error: { message: "secret-echo gsk_123" } },
      undefined,
      new Headers(),
    );
    expect(classify(error, 0).summary).not.toContain("gsk_123");
  });
});

describe("retryAfterMs", () => {
  test("reads retry-after-ms, seconds and HTTP dates, and ignores garbage", () => {
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250" }), 0)).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "3" }), 0)).toBe(3000);
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "Tue, 01 Jan 2030 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), 0)).toBeUndefined();
    expect(retryAfterMs(new Headers({ "retry-after": "-4" }), 0)).toBeUndefined();
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });
});
