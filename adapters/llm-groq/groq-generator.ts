/**
 * The Generator port on Groq's chat-completions API through the official groq-sdk client.
 * The SDK's own retries are off: ours are bounded, jittered and give up early so the
 * extractive fallback can still answer within the latency budget.
 */

import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Stream from "effect/Stream";
import { Groq } from "groq-sdk";
import {
  type AnswerEvent,
  GenerationFailed,
  type GenerationInput,
  Generator,
} from "../../core/ports/generator.ts";
import { type GaveUp, type RetryPolicy, timedAttempt, withRetry } from "../shared/retry.ts";
import { estimateTokens } from "../shared/token-estimate.ts";
import { buildMessages, isDecline, translationMessages } from "./prompt.ts";
import { classify, type ProviderFailure, timedOut } from "./provider-failure.ts";
import { readCompletion } from "./reply.ts";
import { answerEvents } from "./stream-events.ts";

const DEFAULT_BASE_URL = "https://api.groq.com";

/**
 * Two retries, waits capped at 2 s: a longer `retry-after` means giving up at once, since the
 * fallback answers sooner than a wait that would blow the answer's latency.
 */
export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 200, maxDelayMs: 2000 };

export interface GroqOptions {
  readonly apiKey: Redacted.Redacted<string>;
  readonly model: string;
  /** Root of the API (the SDK appends /openai/v1/...). Default https://api.groq.com. */
  readonly baseUrl?: string | undefined;
  /** Per attempt; for streams also the longest silence between two chunks. Default 10 s. */
  readonly timeoutMs?: number | undefined;
  /** Default 512: bounds both cost and latency. */
  readonly maxTokens?: number | undefined;
  /** Default 0.1: answers should stay close to the passages. */
  readonly temperature?: number | undefined;
  readonly retry?: RetryPolicy | undefined;
  /** The product the system prompt names (a hosted site's); default: "this site". */
  readonly productName?: string | undefined;
}

// Same rule as the extractive generator: with nothing to cite there is no answer to charge for.
const NO_PASSAGES = new GenerationFailed({
  message: "no documentation passages were found for this question",
});

/** Translations kept (per language and question): visitors ask the same questions again. */
const TRANSLATIONS_KEPT = 1000;
/** A question is short; so is its translation. */
const TRANSLATION_TOKENS = 200;

const failed = (what: GaveUp<ProviderFailure>) =>
  new GenerationFailed({
    message: `${what.failure.summary}${what.attempts > 1 ? ` after ${what.attempts} attempts` : ""}`,
  });

/** Builds the Groq generator; the client is created once, here. */
export const make = (options: GroqOptions) =>
  Effect.sync(() => {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const policy = options.retry ?? DEFAULT_RETRY;
    const client = new Groq({
      apiKey: Redacted.value(options.apiKey),
      baseURL: options.baseUrl ?? DEFAULT_BASE_URL,
      maxRetries: 0,
      timeout: timeoutMs,
      // The SDK logs raw chunks on parse errors; our own log line says what failed.
      logLevel: "off",
    });
    const request = (input: GenerationInput) => ({
      model: options.model,
      temperature: options.temperature ?? 0.1,
      max_completion_tokens: options.maxTokens ?? 512,
      messages: [...buildMessages(input, options.productName)],
    });

    // One HTTP call: its failures classified, and bounded by our own clock as well as the SDK's.
    const attempt = <A>(call: (signal: AbortSignal) => Promise<A>): Effect.Effect<A, ProviderFailure> =>
      timedAttempt({ try: call, classify, timeout: timeoutMs, onTimeout: () => timedOut("timed out") });

    const generate = Effect.fn("GroqGenerator.generate")(function* (input: GenerationInput) {
      if (input.chunks.length === 0) return yield* NO_PASSAGES;
      const body = request(input);
      const completion = yield* attempt((signal) =>
        client.chat.completions.create({ ...body, stream: false }, { signal }),
      ).pipe(Effect.flatMap(readCompletion), withRetry(policy), Effect.mapError(failed));
      const tokensUsed = completion.tokensUsed ?? estimateTokens(body.messages, completion.text);
      return isDecline(completion.text)
        ? { text: completion.text, tokensUsed, declined: true }
        : { text: completion.text, tokensUsed };
    });

    const stream = (input: GenerationInput): Stream.Stream<AnswerEvent, GenerationFailed> => {
      if (input.chunks.length === 0) return Stream.fail(NO_PASSAGES);
      const body = request(input);
      const open = attempt((signal) =>
        client.chat.completions.create({ ...body, stream: true }, { signal }),
      ).pipe(withRetry(policy), Effect.mapError(failed));
      return Stream.unwrap(
        Effect.map(open, (chunks) =>
          answerEvents({
            chunks,
            idleMs: timeoutMs,
            estimate: (text) => estimateTokens(body.messages, text),
            abort: () => chunks.controller.abort(),
          }).pipe(Stream.mapError((failure) => failed({ failure, attempts: 1 }))),
        ),
      ).pipe(Stream.withSpan("GroqGenerator.stream"));
    };

    // A bounded map in insertion order: the oldest translation goes first.
    const translations = new Map<string, string>();
    const translate = Effect.fn("GroqGenerator.translate")(function* (text: string, language: string) {
      const key = `${language}\n${text}`;
      const kept = translations.get(key);
      if (kept !== undefined) return kept;
      const completion = yield* attempt(
        (signal) =>
          client.chat.completions.create(
            {
              model: options.model,
              temperature: 0,
              max_completion_tokens: TRANSLATION_TOKENS,
              messages: [...translationMessages(text, language)],
              stream: false,
            },
            { signal },
          ),
        // One attempt: the visitor waits for it before anything else, and without it reads the notice.
      ).pipe(
        Effect.flatMap(readCompletion),
        Effect.mapError((failure) => failed({ failure, attempts: 1 })),
      );
      const translation = completion.text.trim();
      if (translations.size >= TRANSLATIONS_KEPT) translations.delete(translations.keys().next().value!);
      translations.set(key, translation);
      return translation;
    });

    return Generator.of({
      name: `groq:${options.model}`,
      judgesRelevance: true,
      translate,
      generate,
      stream,
    });
  });

/** The Groq generator as a layer. */
export const layer = (options: GroqOptions): Layer.Layer<Generator> => Layer.effect(Generator, make(options));
