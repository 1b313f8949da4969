/** Answer ids: each answer gets one, so its reader can vote on it (POST /api/feedback). */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { FeedbackStore } from "../../core/ports/feedback-store.ts";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";
import type { Logger } from "../observability/log.ts";

/**
 * A fresh answer id bound to `identity`; undefined when the store cannot issue one. The answer is
 * already paid for by then, so it is served without thumbs rather than lost.
 */
export const issueAnswerId = async (
  runtime: AppRuntime,
  identity: string,
  log: Logger,
): Promise<string | undefined> => {
  const outcome = await runOutcome(
    runtime,
    Effect.flatMap(FeedbackStore, (store) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => store.issue(identity, now)),
    ),
  );
  if (outcome.ok) return outcome.value;
  log.warn("no answer id issued (feedback disabled for this answer)", { reason: outcome.error.reason });
  return undefined;
};
