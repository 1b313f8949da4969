/**
 * FeedbackStore on Redis: `answer:<id>` holds the identity an answer id was issued to (7 days);
 * a vote is one Lua script that checks that owner and replaces `feedback:<id>` (a hash: vote,
 * at, comment) in one step, kept 90 days.
 */
import * as Effect from "effect/Effect";
import { ANSWER_MEMORY_MS } from "../../../core/answers/feedback.ts";
import { FeedbackStore, UnknownAnswer } from "../../../core/ports/feedback-store.ts";
import { DAY_MS } from "../../../core/time.ts";
import type { KeyLayout } from "../keys.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import type { StoreClient } from "../store-client.ts";

const FEEDBACK_MEMORY_MS = 90 * DAY_MS;

/** KEYS = [answer:<id>, feedback:<id>], ARGV = [identity, vote, comment, at, ttlMs]: 1 kept, 0 not theirs. */
const RECORD = luaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], 'vote', ARGV[2], 'at', ARGV[4])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], 'comment', ARGV[3]) end
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
`);

export const redisFeedback = (client: StoreClient, keys: KeyLayout) =>
  FeedbackStore.of({
    issue: Effect.fn("RedisStore.issueAnswerId")(function* (identity, _now) {
      const id = crypto.randomUUID();
      yield* runCommand(() => client.set(keys.answer(id), identity, "PX", ANSWER_MEMORY_MS));
      return id;
    }),
    record: Effect.fn("RedisStore.recordFeedback")(function* (identity, feedback) {
      const kept = yield* runScript(
        client,
        RECORD,
        [keys.answer(feedback.answerId), keys.feedback(feedback.answerId)],
        [identity, feedback.vote, feedback.comment ?? "", feedback.at, FEEDBACK_MEMORY_MS],
      );
      if (kept !== 1) return yield* new UnknownAnswer();
    }),
  });
