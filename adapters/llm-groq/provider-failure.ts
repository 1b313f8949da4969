/**
 * What went wrong with one call to the provider, reduced to what the retry loop needs.
 * Texts are ours (status and kind only): the provider's message could echo request data.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "groq-sdk";

export type FailureKind =
  | "rate-limited"
  | "server"
  | "connection"
  | "timeout"
  | "rejected"
  | "malformed"
  | "stream-error";

export interface ProviderFailure {
  readonly kind: FailureKind;
  readonly retryable: boolean;
  /** From `retry-after` / `retry-after-ms` on a 429 or 503. */
  readonly retryAfterMs: number | undefined;
  readonly summary: string;
}

const make = (kind: FailureKind, summary: string, retryAfterMs?: number): ProviderFailure => ({
  kind,
  // A timeout is not retried: the fallback answers sooner than a second slow attempt.
  retryable: kind === "rate-limited" || kind === "server" || kind === "connection",
  retryAfterMs,
  summary,
});

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) into milliseconds. */
export const retryAfterMs = (headers: Headers | undefined, nowMs: number): number | undefined => {
  const ms = Number(headers?.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after");
  if (value === null || value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  // Only an IMF-fixdate ("Tue, 01 Jan 2030 00:00:05 GMT"); Date.parse takes "-4" as a year.
  const date = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())
    ? Date.parse(value)
    : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
};

/** Classifies anything thrown by a groq-sdk call. */
export const classify = (error: unknown, nowMs: number): ProviderFailure => {
  if (error instanceof APIConnectionTimeoutError) return make("timeout", "the LLM provider timed out");
  if (error instanceof APIConnectionError) return make("connection", "could not reach the LLM provider");
  if (error instanceof APIError) {
    const status = error.status;
    if (status === undefined) return make("stream-error", "the LLM provider reported an error mid-answer");
    const after = retryAfterMs(error.headers, nowMs);
    if (status === 429) return make("rate-limited", "the LLM provider is rate limiting (HTTP 429)", after);
    if (status >= 500) return make("server", `the LLM provider failed (HTTP ${status})`, after);
    return make("rejected", `the LLM provider rejected the request (HTTP ${status})`);
  }
  if (error instanceof SyntaxError) return make("malformed", "the LLM provider sent malformed JSON");
  return make("connection", "the LLM call failed unexpectedly");
};

/** A reply that parsed but does not have the shape we need. */
export const malformed = (what: string): ProviderFailure =>
  make("malformed", `the LLM provider sent ${what}`);

/** The provider ended a stream with an error of its own. */
export const streamError = (): ProviderFailure =>
  make("stream-error", "the LLM provider stopped the answer with an error");

/** Our timer fired. */
export const timedOut = (what: string): ProviderFailure => make("timeout", `the LLM provider ${what}`);
