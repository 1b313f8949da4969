/**
 * Recording for the owner's insights, off the answer's path: a route calls this once its
 * response is decided, the recording runs without being awaited, and a failure (Redis down,
 * a bug) is logged and counted (`insights_record_failures_total`), never shown to the visitor.
 * Nothing is recorded unless the console is configured (ADMIN_TOKEN). `settled` lets the admin
 * API read its own instance's writes.
 */
import type * as Effect from "effect/Effect";
import type { Feedback } from "../../core/answers/feedback.ts";
import type { AnswerRecord } from "../../core/insights/question-event.ts";
import type { AcceptedPayment } from "../../core/insights/vote-and-payment-events.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { recordAnswer, recordPayment, recordVote } from "../../core/use-cases/record-insights.ts";
import type { Logger } from "../observability/log.ts";
import type { Metrics } from "../observability/metrics.ts";
import { type AppRuntime, Defect, type Outcome, runOutcome, type Services } from "./run-effect.ts";

type Kind = "question" | "vote" | "payment";

export interface InsightsRecorder {
  /** An answered (or declined) question; `started` is the request's performance.now(). */
  readonly answered: (log: Logger, answered: Omit<AnswerRecord, "latencyMs">, started: number) => void;
  readonly voted: (log: Logger, feedback: Feedback) => void;
  readonly paid: (log: Logger, payment: AcceptedPayment) => void;
  /** Resolves once every recording started so far has finished. */
  readonly settled: () => Promise<void>;
}

export const insightsRecorder = (options: {
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  readonly enabled: boolean;
}): InsightsRecorder => {
  const { runtime, metrics, enabled } = options;
  const pending = new Set<Promise<void>>();
  const record = (log: Logger, kind: Kind, effect: Effect.Effect<void, StoreUnavailable, Services>) => {
    if (!enabled) return;
    const done = (outcome: Outcome<void, StoreUnavailable>) => {
      if (outcome.ok) return metrics.count("insights_events_total", { kind });
      metrics.count("insights_record_failures_total", { kind });
      log.warn("insight event not recorded", { kind, reason: outcome.error.reason });
    };
    const failed = (defect: unknown) => {
      metrics.count("insights_record_failures_total", { kind });
      log.error("insight recording failed", {
        kind,
        cause: defect instanceof Defect ? defect.detail : String(defect),
      });
    };
    const outcome = runOutcome(runtime, effect);
    if (!(outcome instanceof Promise)) return done(outcome);
    const settled: Promise<void> = outcome.then(done, failed).finally(() => pending.delete(settled));
    pending.add(settled);
  };
  return {
    answered: (log, answered, started) =>
      record(log, "question", recordAnswer({ ...answered, latencyMs: performance.now() - started })),
    voted: (log, feedback) => record(log, "vote", recordVote(feedback)),
    paid: (log, payment) => record(log, "payment", recordPayment(payment)),
    settled: async () => {
      await Promise.all([...pending]);
    },
  };
};
