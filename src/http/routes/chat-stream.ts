/**
 * SSE answers: `sources` first, then `delta` events, then `done` with tokensUsed and rateLimit.
 * Errors before the first byte (empty message, 402, ...) are ordinary JSON responses. The query
 * is committed when the answer completes; a failure of ours gives it back. A client that hangs
 * up before any answer text is not charged; one that hangs up after reading text is, so an
 * answer cannot be read for free by disconnecting before `done`.
 */
import { Effect, Stream } from "effect";
import type { Context } from "hono";
import { type Answer, GenerationFailed, Generator } from "../../../core/ports/generator.ts";
import { type Question, withChargedQuery } from "../../../core/use-cases/ask-question.ts";
import { issueAnswerId } from "../answer-id.ts";
import type { AppEnv } from "../app-env.ts";
import { publicSource } from "../chat-request.ts";
import { codeOf } from "../error-status.ts";
import { Defect, runOutcome } from "../run-effect.ts";
import { type ChatDeps, chatErrorResponse } from "./chat.ts";

const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform + X-Accel-Buffering keep proxies (nginx, CDNs) from buffering the stream.
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
};

/**
 * One SSE response, opened on demand; writes stop once the client is gone. The edge adds the
 * request id and CORS headers to it like to any other response.
 */
const sseChannel = (
  signal: AbortSignal,
  onCancel: () => void,
  respond: (body: ReadableStream<Uint8Array>) => Response,
) => {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let response: Response | undefined;
  return {
    /** The response, creating the stream the first time. */
    open: (): Response => {
      response ??= respond(
        new ReadableStream<Uint8Array>({
          start: (ctrl) => {
            controller = ctrl;
          },
          cancel: onCancel,
        }),
      );
      return response;
    },
    isOpen: () => response !== undefined,
    send: (event: string, data: unknown) => {
      if (!signal.aborted)
        controller?.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    close: () => {
      if (!signal.aborted) controller?.close();
    },
  };
};

export const streamAnswer = async (
  c: Context<AppEnv>,
  deps: ChatDeps,
  question: Question,
): Promise<Response> => {
  const abort = new AbortController();
  c.req.raw.signal.addEventListener("abort", () => abort.abort(), { once: true });
  const channel = sseChannel(
    abort.signal,
    () => abort.abort(),
    (body) => c.body(body, 200, SSE_HEADERS),
  );
  let delivered = false;
  let opened: (response: Response) => void = () => undefined;
  const streamStarted = new Promise<Response>((resolve) => {
    opened = resolve;
  });

  const program = withChargedQuery(
    question,
    ({ question: text, sources, history }) =>
      Effect.gen(function* () {
        opened(channel.open());
        channel.send("sources", { sources: sources.map(publicSource) });
        const generator = yield* Generator;
        let answer: Answer | undefined;
        yield* Stream.runForEach(generator.stream({ question: text, chunks: sources, history }), (event) =>
          Effect.sync(() => {
            if (event.type === "done") answer = event.answer;
            else {
              channel.send("delta", { text: event.text });
              delivered = true;
            }
          }),
        );
        return (
          answer ?? (yield* Effect.fail(new GenerationFailed({ message: "the answer stream ended early" })))
        );
      }),
    () => delivered,
  );

  const finished = Promise.resolve(runOutcome(deps.runtime, program, abort.signal)).then(
    async (outcome): Promise<Response | undefined> => {
      if (!outcome.ok && !channel.isOpen()) return chatErrorResponse(c, deps, outcome.error);
      const response = channel.open();
      if (outcome.ok) {
        const { answer, sources, rateLimit } = outcome.value;
        // Answered without generating (nothing found): sources and text were not sent yet.
        if (sources.length === 0) {
          channel.send("sources", { sources: [] });
          channel.send("delta", { text: answer.text });
        }
        deps.metrics.count("answers_total");
        const answerId = await issueAnswerId(deps.runtime, c.env.identity, c.env.log);
        channel.send("done", { success: true, answerId, tokensUsed: answer.tokensUsed, rateLimit });
      } else {
        channel.send("error", {
          success: false,
          error: "The answer could not be completed; no query was charged",
          code: codeOf(outcome.error._tag),
        });
      }
      channel.close();
      return response;
    },
    (defect: unknown) => {
      if (!channel.isOpen()) throw defect;
      c.env.log.error("stream failed", {
        cause: defect instanceof Defect ? defect.detail : String(defect),
      });
      channel.send("error", {
        success: false,
        error: "Internal server error",
        code: "INTERNAL_ERROR",
        requestId: c.env.requestId,
      });
      channel.close();
      return undefined;
    },
  );
  // Whichever comes first: the stream opening, or the program ending without it (JSON error).
  const first = await Promise.race([streamStarted, finished]);
  return first ?? channel.open();
};
