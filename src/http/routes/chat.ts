/** POST /api/chat: JSON answers, or SSE (chat-stream.ts) when the client asks for a stream. */
import { Hono } from "hono";
import { askQuestion } from "../../../core/use-cases/ask-question.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { type AppEnv, edgeFactsAsVariables } from "../app-env.ts";
import { decodeChatRequest, publicSource } from "../chat-request.ts";
import { errorResponse } from "../error-response.ts";
import { type AppRuntime, runOutcome } from "../run-effect.ts";
import { streamAnswer } from "./chat-stream.ts";

export interface ChatDeps {
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  /** Named in the text of a 429 (daily paid cap). */
  readonly paidDailyCap: number;
}

export const chatRoutes = (deps: ChatDeps) =>
  new Hono<AppEnv>().use(edgeFactsAsVariables).post("/", async (c) => {
    const request = await decodeChatRequest(c);
    if (!request.ok) return request.response;
    const { message, conversationId, stream } = request.value;
    const question = { identity: c.get("identity"), message, conversationId };
    const wantsStream = stream || (c.req.header("accept") ?? "").includes("text/event-stream");
    if (wantsStream) return streamAnswer(c, deps, question);
    const outcome = await runOutcome(deps.runtime, askQuestion(question), c.req.raw.signal);
    if (!outcome.ok) {
      if (outcome.error._tag === "QuotaExhausted") deps.metrics.count("chat_payment_required_total");
      return errorResponse(c, outcome.error, deps.paidDailyCap);
    }
    const { answer, sources, rateLimit } = outcome.value;
    deps.metrics.count("answers_total");
    return c.json({
      success: true,
      response: answer.text,
      sources: sources.map(publicSource),
      tokensUsed: answer.tokensUsed,
      declined: answer.declined === true,
      rateLimit,
    });
  });
