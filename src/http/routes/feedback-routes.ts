/** POST /api/feedback: a thumbs up/down (and optional comment) on an answer the caller got. */
import { Hono } from "hono";
import { giveFeedback } from "../../../core/use-cases/give-feedback.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import type { InsightsRecorder } from "../../hono-kit/insights-recorder.ts";
import { readJsonObject } from "../../hono-kit/read-json.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { unavailableResponse } from "../error-response.ts";

export const feedbackRoutes = (runtime: AppRuntime, metrics: Metrics, recorder: InsightsRecorder) =>
  new Hono<AppEnv>().post("/", async (c) => {
    const parsed = await readJsonObject(c);
    if (!parsed.ok) return parsed.response;
    const outcome = await runOutcome(runtime, giveFeedback(c.env.identity, parsed.value));
    if (outcome.ok) {
      metrics.count("feedback_total", { vote: outcome.value.vote });
      const response = c.json({ success: true, answerId: outcome.value.answerId, vote: outcome.value.vote });
      recorder.voted(c.env.log, outcome.value);
      return response;
    }
    const { error } = outcome;
    switch (error._tag) {
      case "InvalidFeedback":
        return c.json(
          {
            success: false,
            error: "Invalid feedback",
            details: `${error.problem}. Send {"answerId": "<answerId of the answer>", "vote": "up" | "down", "comment"?: "<at most 1000 characters>"}.`,
            code: "INVALID_FEEDBACK",
          },
          400,
        );
      case "UnknownAnswer":
        return c.json(
          {
            success: false,
            error: "Unknown answer: vote on an answer you received in the last 7 days",
            code: "UNKNOWN_ANSWER",
          },
          404,
        );
      case "StoreUnavailable":
        return unavailableResponse(c, error);
      default:
        return error satisfies never;
    }
  });
