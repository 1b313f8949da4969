/**
 * A provider stream as the port's events: one delta per non-empty content piece, then one
 * `done` with the whole text and the usage the final chunk reported (Groq puts it in
 * `x_groq.usage`; OpenAI-style servers in `usage`). Silence longer than `idleMs` fails it.
 * While the reply so far could still be the decline sentence, its text is held back: a decline
 * reaches the client whole, with its `done`, and a reply that only begins like one is an answer.
 */
import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";
import type { ChatCompletionChunk } from "groq-sdk/resources/chat/completions";
import type { AnswerEvent } from "../../core/ports/generator.ts";
import { isDecline, mayBeDecline } from "./prompt.ts";
import { classify, malformed, type ProviderFailure, streamError, timedOut } from "./provider-failure.ts";
import { readUsage } from "./reply.ts";

export interface StreamSource {
  readonly chunks: AsyncIterable<ChatCompletionChunk>;
  readonly idleMs: number;
  /** Tokens to report when the provider sent no usage. */
  readonly estimate: (text: string) => number;
  /** Closes the HTTP response; called however the stream ends. */
  readonly abort: () => void;
}

/** The events of one streamed answer. */
export const answerEvents = (source: StreamSource): Stream.Stream<AnswerEvent, ProviderFailure> =>
  Stream.suspend(() => {
    let text = "";
    let held = true;
    let tokensUsed: number | undefined;
    const deltas = Stream.fromAsyncIterable(source.chunks, (error) => classify(error, Date.now())).pipe(
      Stream.timeoutOrElse({
        duration: source.idleMs,
        orElse: () => Stream.fail(timedOut("stopped sending mid-answer")),
      }),
      Stream.flatMap((chunk) => {
        if (typeof chunk !== "object" || chunk === null || !Array.isArray(chunk.choices))
          return Stream.fail(malformed("a malformed stream chunk"));
        if (typeof chunk.x_groq?.error === "string") return Stream.fail(streamError());
        tokensUsed =
          readUsage(chunk.x_groq?.usage) ?? readUsage((chunk as { usage?: unknown }).usage) ?? tokensUsed;
        const piece = chunk.choices[0]?.delta?.content;
        if (typeof piece !== "string" || piece === "") return Stream.empty;
        text += piece;
        if (!held) return Stream.succeed<AnswerEvent>({ type: "delta", text: piece });
        if (mayBeDecline(text)) return Stream.empty;
        held = false;
        return Stream.succeed<AnswerEvent>({ type: "delta", text });
      }),
    );
    const done = Stream.suspend(() =>
      text.trim() === ""
        ? Stream.fail(malformed("an empty answer"))
        : Stream.make<ReadonlyArray<AnswerEvent>>(...(held ? [{ type: "delta", text } as const] : []), {
            type: "done",
            answer: isDecline(text)
              ? { text, tokensUsed: tokensUsed ?? source.estimate(text), declined: true }
              : { text, tokensUsed: tokensUsed ?? source.estimate(text) },
          }),
    );
    return Stream.concat(deltas, done).pipe(Stream.ensuring(Effect.sync(source.abort)));
  });
