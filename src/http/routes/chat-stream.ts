/**
 * SSE answers, between the chat's two phases: prepare (errors before the first byte, such as
 * an empty message or 402, are ordinary JSON responses), then `sources` (the retrieved
 * passages; sent again before any text, replacing them, when the answer lists only those
 * related to the question, numbered as it cites them), `delta` events and `done` with
 * tokensUsed and rateLimit, then charge or release. A client that hangs up before
 * any answer text reached it is not charged; one that hangs up after is, so an answer cannot
 * be read for free by disconnecting before `done`.
 */
import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { listedSources } from "../../../core/answers/answer-sources.ts";
import type { AnswerOutcome } from "../../../core/insights/question-event.ts";
import { type Answer, GenerationFailed, Generator } from "../../../core/ports/generator.ts";
import type { QuotaView } from "../../../core/quota.ts";
import { generationInput, withinDeadline } from "../../../core/use-cases/ask-question.ts";
import { chargeAnswer, finishAnswer, releaseAnswer } from "../../../core/use-cases/finish-answer.ts";
import { type PreparedAnswer, prepareAnswer, type Question } from "../../../core/use-cases/prepare-answer.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { Defect, runOutcome } from "../../hono-kit/run-effect.ts";
import { issueAnswerId } from "../answer-id.ts";
import { type ChatPaymentDeps, chatErrorResponse } from "../chat-payment.ts";
import { publicSource } from "../chat-request.ts";
import { codeOf } from "../error-status.ts";

type Send = (event: "sources" | "delta" | "done" | "error", data: unknown) => Promise<void>;

const sender =
  (stream: SSEStreamingApi): Send =>
  (event, data) =>
    stream.writeSSE({ event, data: JSON.stringify(data) });

/**
 * The generator's stream written out as `delta` events (and, when the answer lists only some
 * of the passages, a `sources` event replacing the first list before any text); its whole
 * answer at the end.
 */
const streamGenerated = (
  prepared: PreparedAnswer,
  send: { readonly delta: (text: string) => Promise<void>; readonly sources: Send },
) =>
  Effect.gen(function* () {
    const generator = yield* Generator;
    let answer: Answer | undefined;
    yield* Stream.runForEach(generator.stream(generationInput(prepared)), (event) => {
      switch (event.type) {
        case "sources": {
          const sources = listedSources(event, prepared.sources).map(publicSource);
          return Effect.promise(() => send.sources("sources", { sources }));
        }
        case "delta":
          return Effect.promise(() => send.delta(event.text));
        case "done":
          return Effect.sync(() => {
            answer = event.answer;
          });
        default:
          return event satisfies never;
      }
    });
    return answer ?? (yield* Effect.fail(new GenerationFailed({ message: "the answer stream ended early" })));
  });

/** The closing event of an answered question, with the id to vote on it; then its recording for the insights. */
const sendDone = async (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  send: Send,
  answered: { readonly question: Question; readonly outcome: AnswerOutcome; readonly answer: Answer },
  rateLimit: QuotaView,
  started: number,
) => {
  deps.metrics.count("answers_total");
  const answerId = await issueAnswerId(deps.runtime, c.env.identity, c.env.log);
  await send("done", {
    success: true,
    answerId,
    tokensUsed: answered.answer.tokensUsed,
    declined: answered.answer.declined === true,
    rateLimit,
  });
  deps.recorder.answered(c.env.log, { ...answered, answerId }, started);
};

/** Generates into the open stream, then charges (text reached the client) or releases. */
const answerInto = async (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  question: Question,
  prepared: PreparedAnswer,
  stream: SSEStreamingApi,
  started: number,
) => {
  const send = sender(stream);
  const hangUp = new AbortController();
  stream.onAbort(() => hangUp.abort());
  c.req.raw.signal.addEventListener("abort", () => hangUp.abort(), { once: true });
  let delivered = false;
  // Text handed to an open stream counts as delivered (the client may read it and hang up
  // before our write even resolves); text for a stream already cut does not.
  const sendDelta = (text: string) => {
    if (hangUp.signal.aborted) return Promise.resolve();
    delivered = true;
    return send("delta", { text });
  };
  // Sent at once: a language model may take a while to its first word.
  await send("sources", { sources: prepared.sources.map(publicSource) });
  const sendSources: Send = (event, data) => (hangUp.signal.aborted ? Promise.resolve() : send(event, data));
  const streamed = streamGenerated(prepared, { delta: sendDelta, sources: sendSources });
  const generated = await Promise.resolve(
    runOutcome(deps.runtime, withinDeadline(streamed), hangUp.signal),
  ).catch((defect: unknown) => ({ ok: "defect" as const, defect }));

  if (generated.ok === true) {
    // A declined answer is given back even though its text was sent: it tells the client nothing it pays for.
    const charged = await runOutcome(deps.runtime, finishAnswer(prepared, generated.value));
    if (!charged.ok)
      return send("error", {
        success: false,
        error: "The answer could not be recorded",
        code: codeOf(charged.error),
      });
    const answered = { question, outcome: prepared, answer: generated.value };
    return sendDone(c, deps, send, answered, charged.value, started);
  }
  // Cut off: the client hung up (charged only if text reached it), or we failed (never charged).
  const served = hangUp.signal.aborted && delivered;
  await runOutcome(
    deps.runtime,
    served ? Effect.ignore(chargeAnswer(prepared, undefined)) : releaseAnswer(prepared),
  );
  // Served in part: an answered question, though without its whole text.
  if (served) {
    const cut = { question, outcome: prepared, answer: undefined, answerId: undefined };
    deps.recorder.answered(c.env.log, cut, started);
  }
  if (hangUp.signal.aborted) return;
  if (generated.ok === false) {
    return send("error", {
      success: false,
      error: "The answer could not be completed; no query was charged",
      code: codeOf(generated.error),
    });
  }
  c.env.log.error("stream failed", {
    cause: generated.defect instanceof Defect ? generated.defect.detail : String(generated.defect),
  });
  return send("error", {
    success: false,
    error: "Internal server error",
    code: "INTERNAL_ERROR",
    requestId: c.env.requestId,
  });
};

export const streamAnswer = async (
  c: Context<AppEnv>,
  deps: ChatPaymentDeps,
  question: Question,
  started: number,
): Promise<Response> => {
  const prepared = await runOutcome(deps.runtime, prepareAnswer(question), c.req.raw.signal);
  if (!prepared.ok) return chatErrorResponse(c, deps, prepared.error);
  const ready = prepared.value;
  const response = streamSSE(c, async (stream) => {
    if (ready.kind === "ready") return answerInto(c, deps, question, ready, stream, started);
    const send = sender(stream);
    // Declined without generating (the docs do not cover it), already uncharged.
    await send("sources", { sources: ready.sources.map(publicSource) });
    await send("delta", { text: ready.answer.text });
    await sendDone(
      c,
      deps,
      send,
      { question, outcome: ready, answer: ready.answer },
      ready.rateLimit,
      started,
    );
  });
  // no-transform + X-Accel-Buffering keep proxies (nginx, CDNs) from buffering the stream.
  response.headers.set("Cache-Control", "no-cache, no-transform");
  response.headers.set("X-Accel-Buffering", "no");
  response.headers.set("Content-Type", "text/event-stream; charset=utf-8");
  return response;
};
