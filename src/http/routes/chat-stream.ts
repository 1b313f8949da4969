/**
 * SSE answers: `sources` first, then `delta` events, then `done` with tokensUsed and rateLimit.
 * Errors before the first byte (empty message, 402, ...) are ordinary JSON responses; the
 * query is committed only after the answer completed, and a client that disconnects mid-way
 * interrupts the program, which releases the held query.
 */
import { Effect, Stream } from "effect";
import type { Context } from "hono";
import { type Answer, GenerationFailed, Generator } from "../../../core/ports/generator.ts";
import { type Question, withChargedQuery } from "../../../core/use-cases/ask-question.ts";
import type { AppEnv } from "../app-env.ts";
import { publicSource } from "../chat-request.ts";
import { codeOf } from "../error-status.ts";
import { runOutcome } from "../run-effect.ts";
import { type ChatDeps, chatErrorResponse } from "./chat.ts";

const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform + X-Accel-Buffering keep proxies (nginx, CDNs) from buffering the stream.
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
};

export const streamAnswer = (c: Context<AppEnv>, deps: ChatDeps, question: Question): Promise<Response> =>
  new Promise<Response>((resolve, reject) => {
    const encoder = new TextEncoder();
    const abort = new AbortController();
    c.req.raw.signal.addEventListener("abort", () => abort.abort(), { once: true });
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const send = (event: string, data: unknown) => {
      if (!abort.signal.aborted)
        controller?.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    };
    const open = () => {
      const body = new ReadableStream<Uint8Array>({
        start: (ctrl) => {
          controller = ctrl;
        },
        cancel: () => abort.abort(),
      });
      resolve(new Response(body, { status: 200, headers: SSE_HEADERS }));
    };

    const program = withChargedQuery(question, ({ question: text, sources, history }) =>
      Effect.gen(function* () {
        open();
        send("sources", { sources: sources.map(publicSource) });
        const generator = yield* Generator;
        let answer: Answer | undefined;
        yield* Stream.runForEach(generator.stream({ question: text, chunks: sources, history }), (event) =>
          Effect.sync(() => {
            if (event.type === "delta") send("delta", { text: event.text });
            else answer = event.answer;
          }),
        );
        return (
          answer ?? (yield* Effect.fail(new GenerationFailed({ message: "the answer stream ended early" })))
        );
      }),
    );

    runOutcome(deps.runtime, program, abort.signal).then(
      async (outcome) => {
        if (controller === undefined) {
          resolve(
            outcome.ok
              ? c.json({ success: false, error: "Internal server error" }, 500)
              : await chatErrorResponse(c, deps, outcome.error),
          );
          return;
        }
        if (outcome.ok) {
          deps.metrics.count("answers_total");
          send("done", {
            success: true,
            tokensUsed: outcome.value.answer.tokensUsed,
            rateLimit: outcome.value.rateLimit,
          });
        } else {
          send("error", {
            success: false,
            error: "The answer could not be completed; no query was charged",
            code: codeOf(outcome.error._tag),
          });
        }
        if (!abort.signal.aborted) controller.close();
      },
      (defect: unknown) => {
        if (controller === undefined) return reject(defect);
        c.get("log").error("stream failed", {
          cause: String(
            defect instanceof Error ? ((defect as { detail?: string }).detail ?? defect.message) : defect,
          ),
        });
        send("error", { success: false, error: "Internal server error", requestId: c.get("requestId") });
        if (!abort.signal.aborted) controller.close();
      },
    );
  });
