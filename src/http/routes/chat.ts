/** POST /api/chat: JSON answers, or SSE (chat-stream.ts) when the client asks for a stream. */
import { Hono } from "hono";
import { askQuestion } from "../../../core/use-cases/ask-question.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { issueAnswerId } from "../answer-id.ts";
import { type AppEnv, edgeFactsAsVariables } from "../app-env.ts";
import { decodeChatRequest, publicSource } from "../chat-request.ts";
import { errorResponse } from "../error-response.ts";
import type { InsightsRecorder } from "../insights-recorder.ts";
import { type AppRuntime, runOutcome } from "../run-effect.ts";
import { streamAnswer } from "./chat-stream.ts";

export interface ChatDeps {
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  /** Named in the text of a 429 (daily paid cap). */
  readonly paidDailyCap: number;
  readonly recorder: InsightsRecorder;
}

export const chatRoutes = (deps: ChatDeps) =>
  new Hono<AppEnv>().use(edgeFactsAsVariables).post("/", async (c) => {
    const started = performance.now();
    const request = await decodeChatRequest(c);
    if (!request.ok) return request.response;
    const { message, conversationId, stream } = request.value;
    const question = { identity: c.get("identity"), message, conversationId };
    const wantsStream = stream || (c.req.header("accept") ?? "").includes("text/event-stream");
    if (wantsStream) return streamAnswer(c, deps, question, started);
    const outcome = await runOutcome(deps.runtime, askQuestion(question), c.req.raw.signal);
    if (!outcome.ok) {
      if (outcome.error._tag === "QuotaExhausted") deps.metrics.count("chat_payment_required_total");
      return errorResponse(c, outcome.error, deps.paidDailyCap);
    }
    const { answer, sources, rateLimit } = outcome.value;
    deps.metrics.count("answers_total");
    const answerId = await issueAnswerId(deps.runtime, c.get("identity"), c.get("log"));
    const response = c.json({
      success: true,
      answerId,
      response: answer.text,
      sources: sources.map(publicSource),
      tokensUsed: answer.tokensUsed,
      rateLimit,
    });
    deps.recorder.answered(
      c.get("log"),
      { question, outcome: outcome.value.outcome, answer, answerId },
      started,
    );
    return response;
  });
