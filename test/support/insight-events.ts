/** Insight events for tests: builders with defaults, and fast-check arbitraries of any valid event. */
import fc from "fast-check";
import type {
  EventSource,
  InsightEvent,
  PaymentEvent,
  QuestionEvent,
  VoteEvent,
} from "../../core/insights/events.ts";
import { PAYMENT_DIALECTS } from "../../core/insights/events.ts";

export const T0 = Date.UTC(2030, 0, 15, 12);

export const source = (
  passage: string,
  cited = true,
  page = `https://docs.example.com/${passage}.html`,
): EventSource => ({
  passage,
  title: `Title of ${passage}`,
  url: `${page}#${passage}`,
  page,
  cited,
});

export const question = (text: string, fields: Partial<QuestionEvent> = {}): QuestionEvent => ({
  _tag: "question",
  at: T0,
  visitor: "visitor-a",
  question: text,
  declined: false,
  billing: "free",
  conversation: null,
  answerId: null,
  latencyMs: 10,
  sources: [],
  ...fields,
});

export const vote = (answerId: string, fields: Partial<VoteEvent> = {}): VoteEvent => ({
  _tag: "vote",
  at: T0,
  answerId,
  vote: "down",
  comment: null,
  ...fields,
});

export const payment = (units: number, fields: Partial<PaymentEvent> = {}): PaymentEvent => ({
  _tag: "payment",
  at: T0,
  visitor: "visitor-a",
  units,
  queries: Math.floor(units / 1000),
  dialect: "signature",
  ...fields,
});

const text = (max: number) => fc.string({ unit: "grapheme", maxLength: max });
const at = fc.integer({ min: T0 - 40 * 86_400_000, max: T0 + 40 * 86_400_000 });

const sourceArb: fc.Arbitrary<EventSource> = fc.record({
  passage: fc.constantFrom("a", "b", "c", "d", "e"),
  title: text(30),
  url: fc.webUrl(),
  page: fc.webUrl(),
  cited: fc.boolean(),
});

/** Questions drawn from a small vocabulary, so groups form. */
export const questionArb: fc.Arbitrary<QuestionEvent> = fc.record({
  _tag: fc.constant("question" as const),
  at,
  visitor: fc.constantFrom("v1", "v2", "v3"),
  question: fc.constantFrom(
    "How do I pay?",
    "how do i pay",
    "HOW DO I PAY!!",
    "Install it?",
    "install it",
    "Why?",
    "Ça marche ?",
  ),
  declined: fc.boolean(),
  billing: fc.constantFrom("free" as const, "paid" as const, "uncharged" as const),
  conversation: fc.option(fc.constantFrom("c1", "c2"), { nil: null }),
  answerId: fc.option(fc.constantFrom("a1", "a2", "a3", "a4"), { nil: null }),
  latencyMs: fc.integer({ min: 0, max: 600_000 }),
  sources: fc.array(sourceArb, { maxLength: 5 }),
});

export const voteArb: fc.Arbitrary<VoteEvent> = fc.record({
  _tag: fc.constant("vote" as const),
  at,
  answerId: fc.constantFrom("a1", "a2", "a3", "a4"),
  vote: fc.constantFrom("up" as const, "down" as const),
  comment: fc.option(text(40), { nil: null }),
});

export const paymentArb: fc.Arbitrary<PaymentEvent> = fc.record({
  _tag: fc.constant("payment" as const),
  at,
  visitor: fc.constantFrom("v1", "v2", "v3"),
  units: fc.integer({ min: 10_000, max: 1_000_000 }),
  queries: fc.integer({ min: 10, max: 1000 }),
  dialect: fc.constantFrom(...PAYMENT_DIALECTS),
});

export const eventArb: fc.Arbitrary<InsightEvent> = fc.oneof(questionArb, voteArb, paymentArb);
