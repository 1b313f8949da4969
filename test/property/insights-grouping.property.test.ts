/**
 * Near-duplicate grouping: a partition of the questions (each counted once), never splitting
 * two questions with the same words or the same top passages, and independent of event order.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { QuestionEvent } from "../../core/insights/events.ts";
import { groupQuestions, partition } from "../../core/insights/group-questions.ts";
import { groupingKey } from "../../core/insights/text.ts";
import { question, questionArb, source } from "../support/insight-events.ts";

const RUNS = { numRuns: 300 };
const events = fc.array(questionArb, { maxLength: 40 });

/** The partition as a set of sets of events (their indices mapped through `order`). */
const groupsOf = (list: ReadonlyArray<QuestionEvent>, order: ReadonlyArray<number>) =>
  partition(list)
    .map((group) =>
      group
        .map((i) => order[i] as number)
        .sort((a, b) => a - b)
        .join(","),
    )
    .sort();

const topPassages = (event: QuestionEvent) =>
  event.sources
    .slice(0, 3)
    .map((s) => s.passage)
    .join("|");

describe("grouping questions", () => {
  test("every question is in exactly one group, and the groups' counts add up", () =>
    fc.assert(
      fc.property(events, (list) => {
        const members = partition(list).flat();
        expect(members.sort((a, b) => a - b)).toEqual(list.map((_, i) => i));
        const groups = groupQuestions(list, Number.MAX_SAFE_INTEGER);
        expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(list.length);
        expect(groups.reduce((sum, group) => sum + group.declined, 0)).toBe(
          list.filter((e) => e.declined).length,
        );
      }),
      RUNS,
    ));

  test("the same words, or the same top three passages, are always one group", () =>
    fc.assert(
      fc.property(events, (list) => {
        const groupOf = new Map<number, number>();
        partition(list).forEach((group, g) => {
          for (const i of group) groupOf.set(i, g);
        });
        for (const [i, a] of list.entries())
          for (const [j, b] of list.entries()) {
            const sameWords = groupingKey(a.question) === groupingKey(b.question);
            const samePassages = a.sources.length > 0 && topPassages(a) === topPassages(b);
            if (sameWords || samePassages) expect(groupOf.get(i)).toBe(groupOf.get(j) as number);
          }
      }),
      RUNS,
    ));

  test("the grouping does not depend on the order of the events", () =>
    fc.assert(
      fc.property(
        events.chain((list) =>
          fc.tuple(fc.constant(list), fc.shuffledSubarray([...list.keys()], { minLength: list.length })),
        ),
        ([list, order]) => {
          const shuffled = order.map((i) => list[i] as QuestionEvent);
          expect(groupsOf(shuffled, order)).toEqual(groupsOf(list, [...list.keys()]));
        },
      ),
      RUNS,
    ));

  test("different words with different passages stay apart; the most asked wording names the group", () => {
    const groups = groupQuestions(
      [
        question("How do I pay?", { sources: [source("pay"), source("price")], at: 1 }),
        question("how do i PAY", { sources: [source("pay"), source("price")], at: 2 }),
        question("What does it cost?", { sources: [source("pay"), source("price")], at: 3 }),
        question("how do i pay", { sources: [source("other")], at: 4 }),
        question("Where are the logs?", { sources: [source("logs")], at: 5 }),
        question("Where are the logs kept?", { sources: [source("logs2")], at: 6 }),
      ],
      10,
    );
    expect(groups.map((group) => [group.question, group.count])).toEqual([
      ["how do i pay", 4],
      ["Where are the logs kept?", 1],
      ["Where are the logs?", 1],
    ]);
    expect(groups[0]?.variants).toEqual([
      { question: "how do i pay", count: 1 },
      { question: "What does it cost?", count: 1 },
      { question: "how do i PAY", count: 1 },
      { question: "How do I pay?", count: 1 },
    ]);
    expect(groups[0]?.sources.map((s) => s.page)).toEqual([
      "https://docs.example.com/pay.html",
      "https://docs.example.com/price.html",
      "https://docs.example.com/other.html",
    ]);
  });

  test("case, accents and punctuation do not make a new question", () => {
    expect(groupingKey("Ça marche, NAÏVE?!")).toBe(groupingKey("ca marche naive"));
    expect(groupingKey("my key [redacted] fails")).toBe(groupingKey("my key fails"));
  });
});
