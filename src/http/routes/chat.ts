/** POST /api/chat: JSON answers, or SSE when the client asks for a stream. */
import { Clock, Effect } from "effect";
import { type Context, Hono } from "hono";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import type { QuotaExhausted, QuotaView } from "../../../core/quota.ts";
import { askQuestion } from "../../../core/use-cases/ask-question.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { issueAnswerId } from "../answer-id.ts";
import type { AppEnv } from "../app-env.ts";
import { parseChatRequest, publicSource } from "../chat-request.ts";
import { errorResponse, QUOTA_EXHAUSTED_TEXT } from "../error-response.ts";
import type { AppError } from "../error-status.ts";
import { type PaymentDesk, paymentInfo } from "../payment-desk.ts";
import { readJsonObject } from "../read-json.ts";
import { type AppRuntime, runOutcome } from "../run-effect.ts";
import { streamAnswer } from "./chat-stream.ts";

/** The 402 body: the caller's rateLimit, the price and how to pay. */
const paymentRequired = async (c: Context<AppEnv>, deps: ChatDeps, exhausted: QuotaExhausted) => {
  const identity = c.env.identity;
  deps.metrics.count("chat_payment_required_total");
  c.env.log.info("quota exhausted", { identity });
  const outcome = await runOutcome(
    deps.runtime,
    Effect.flatMap(PaymentStore, (store) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => store.referenceFor(identity, now)),
    ),
  );
  if (!outcome.ok) return errorResponse(c, outcome.error);
  // The store raises QuotaExhausted only when nothing at all is left: no second read needed.
  const rateLimit: QuotaView = {
    remaining: 0,
    resetAt: exhausted.resetAt,
    requiresPayment: true,
    free: 0,
    paid: 0,
  };
  return c.json(
    {
      success: false,
      error: QUOTA_EXHAUSTED_TEXT,
      code: "PAYMENT_REQUIRED",
      rateLimit,
      payment: paymentInfo(deps.desk, outcome.value),
    },
    402,
  );
};

export interface ChatDeps {
  readonly runtime: AppRuntime;
  readonly desk: PaymentDesk;
  readonly metrics: Metrics;
}

/** Routes an expected chat error: 402 gets the payment body, the rest the shared mapping. */
export const chatErrorResponse = (c: Context<AppEnv>, deps: ChatDeps, error: AppError) =>
  error._tag === "QuotaExhausted"
    ? paymentRequired(c, deps, error)
    : errorResponse(c, error, deps.desk.paidDailyCap);

export const chatRoutes = (deps: ChatDeps) =>
  new Hono<AppEnv>().post("/", async (c) => {
    const parsed = await readJsonObject(c);
    if (!parsed.ok) return parsed.response;
    const request = parseChatRequest(parsed.body);
    if (typeof request === "string")
      return c.json({ success: false, error: request, code: "INVALID_REQUEST" }, 400);
    const question = {
      identity: c.env.identity,
      message: request.message,
      conversationId: request.conversationId,
    };
    const wantsStream = request.stream || (c.req.header("accept") ?? "").includes("text/event-stream");
    if (wantsStream) return streamAnswer(c, deps, question);
    const outcome = await runOutcome(deps.runtime, askQuestion(question), c.req.raw.signal);
    if (!outcome.ok) return chatErrorResponse(c, deps, outcome.error);
    const { answer, sources, rateLimit } = outcome.value;
    deps.metrics.count("answers_total");
    return c.json({
      success: true,
      answerId: await issueAnswerId(deps.runtime, c.env.identity, c.env.log),
      response: answer.text,
      sources: sources.map(publicSource),
      tokensUsed: answer.tokensUsed,
      rateLimit,
    });
  });
