/** The insights' "declined": decided before the model (relevance) or by the model's own answer; never billed. */
import { describe, expect, test } from "bun:test";
import { questionEvent } from "../../core/insights/question-event.ts";
import { DECLINED, type PreparedAnswer } from "../../core/use-cases/prepare-answer.ts";
import { OFF_TOPIC } from "../support/relevance-evidence.ts";
import { CHUNKS } from "../support/use-case-layers.ts";

const question = { identity: "203.0.113.7", message: "What is a quokka?", conversationId: undefined };
const recording = { at: 1_900_000_000_000, visitor: "v", redaction: /$^/ };
const ready: PreparedAnswer = {
  kind: "ready",
  identity: question.identity,
  wallet: undefined,
  hold: { id: "h", bucket: "free", day: 1, expiresAt: 2 },
  onWallet: false,
  question: question.message,
  sources: CHUNKS.slice(0, 5),
  history: [],
  conversationKey: undefined,
  indexVersion: "v1",
};
const event = (
  outcome: Parameters<typeof questionEvent>[0]["outcome"],
  answer: { text: string; tokensUsed: number; declined?: boolean },
) => questionEvent({ question, outcome, answer, answerId: "a", latencyMs: 5 }, recording);

describe("declined questions in the insights", () => {
  test("an answer from the passages is answered and billed to its bucket", () => {
    expect(event(ready, { text: "Use quokkas [1].", tokensUsed: 9 })).toMatchObject({
      declined: false,
      billing: "free",
    });
  });

  test("the relevance decision's decline and the model's decline are both declined and uncharged", () => {
    const declined = {
      kind: "declined" as const,
      answer: DECLINED,
      rateLimit: { remaining: 3, resetAt: 0, requiresPayment: false, free: 3, paid: 0 },
      evidence: OFF_TOPIC,
      sources: CHUNKS.slice(0, 5),
      reason: "uncovered" as const,
    };
    expect(event(declined, DECLINED)).toMatchObject({ declined: true, billing: "uncharged" });
    const byModel = {
      text: "The documentation does not cover this question.",
      tokensUsed: 30,
      declined: true,
    };
    expect(event(ready, byModel)).toMatchObject({ declined: true, billing: "uncharged" });
  });
});
