/**
 * The insights report of a range, from the events a store returned: pure, so every figure is
 * tested without a store. Questions and payments count when they happened inside the range;
 * a vote counts for its answer whenever it came (the latest vote on an answer wins).
 */
import { utcDay } from "../time.ts";
import { type DayRange, daysOf, formatDay, rangeEnd, rangeStart } from "./day-range.ts";
import {
  CHANNELS,
  type InsightEvent,
  type PaymentEvent,
  type QuestionEvent,
  type VoteEvent,
} from "./events.ts";
import { groupQuestions } from "./group-questions.ts";
import type { CitedPage, InsightsReport } from "./report.ts";
import { revenueOf } from "./revenue.ts";

export const REPORT_LIMITS = { groups: 20, pages: 10, downVoted: 50 } as const;

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number);

/** The latest vote on each answer. */
const latestVotes = (votes: ReadonlyArray<VoteEvent>): Map<string, VoteEvent> => {
  const latest = new Map<string, VoteEvent>();
  for (const vote of votes) {
    const known = latest.get(vote.answerId);
    if (known === undefined || vote.at >= known.at) latest.set(vote.answerId, vote);
  }
  return latest;
};

/** Pages by how often answers cited them: the most cited, and the least cited of the rest. */
const citedPages = (questions: ReadonlyArray<QuestionEvent>) => {
  const pages = new Map<string, CitedPage>();
  for (const { sources } of questions)
    for (const { title, url, page, cited } of sources) {
      if (!cited) continue;
      const known = pages.get(page);
      pages.set(page, { title, url, page, citations: (known?.citations ?? 0) + 1 });
    }
  const byPage = (a: CitedPage, b: CitedPage) => (a.page < b.page ? -1 : 1);
  const most = [...pages.values()].sort((a, b) => b.citations - a.citations || byPage(a, b));
  const shown = most.slice(0, REPORT_LIMITS.pages);
  const least = most
    .slice(REPORT_LIMITS.pages)
    .sort((a, b) => a.citations - b.citations || byPage(a, b))
    .slice(0, REPORT_LIMITS.pages);
  return { mostCitedPages: shown, leastCitedPages: least };
};

const downVoted = (questions: ReadonlyArray<QuestionEvent>, votes: Map<string, VoteEvent>) =>
  questions
    .flatMap((question) => {
      const vote = question.answerId === null ? undefined : votes.get(question.answerId);
      if (vote?.vote !== "down") return [];
      const cited = question.sources.filter((source) => source.cited);
      const shown = cited.length > 0 ? cited : question.sources;
      return [
        {
          question: question.question,
          answerId: vote.answerId,
          askedAt: question.at,
          votedAt: vote.at,
          comment: vote.comment,
          // One link per page, though several of its passages were cited.
          sources: shown
            .filter((source, i) => shown.findIndex((other) => other.page === source.page) === i)
            .map(({ title, url, page }) => ({ title, url, page })),
        },
      ];
    })
    .sort((a, b) => b.votedAt - a.votedAt)
    .slice(0, REPORT_LIMITS.downVoted);

export const summarize = (events: ReadonlyArray<InsightEvent>, range: DayRange): InsightsReport => {
  const [start, end] = [rangeStart(range), rangeEnd(range)];
  const within = (event: InsightEvent) => event.at >= start && event.at < end;
  const questions = events.filter((e): e is QuestionEvent => e._tag === "question" && within(e));
  const payments = events.filter((e): e is PaymentEvent => e._tag === "payment" && within(e));
  const votes = latestVotes(events.filter((e): e is VoteEvent => e._tag === "vote"));
  const ownVotes = questions.flatMap((q) => (q.answerId === null ? [] : (votes.get(q.answerId) ?? [])));
  const declined = questions.filter((question) => question.declined);
  const latencies = questions.map((question) => question.latencyMs).sort((a, b) => a - b);
  const perDay = new Map<number, { questions: number; declined: number }>();
  for (const question of questions) {
    const day = perDay.get(utcDay(question.at)) ?? { questions: 0, declined: 0 };
    day.questions += 1;
    if (question.declined) day.declined += 1;
    perDay.set(utcDay(question.at), day);
  }
  return {
    from: formatDay(range.fromDay),
    to: formatDay(range.toDay),
    totals: {
      questions: questions.length,
      answered: questions.length - declined.length,
      declined: declined.length,
      free: questions.filter((question) => question.billing === "free").length,
      paid: questions.filter((question) => question.billing === "paid").length,
      votesUp: ownVotes.filter((vote) => vote.vote === "up").length,
      votesDown: ownVotes.filter((vote) => vote.vote === "down").length,
      conversations: new Set(questions.flatMap((q) => (q.conversation === null ? [] : [q.conversation])))
        .size,
      latencyP50Ms: percentile(latencies, 0.5),
      latencyP95Ms: percentile(latencies, 0.95),
    },
    questionsPerDay: daysOf(range).map((day) => ({
      day: formatDay(day),
      ...(perDay.get(day) ?? { questions: 0, declined: 0 }),
    })),
    questionsByChannel: CHANNELS.map((channel) => ({
      channel,
      questions: questions.filter((question) => (question.channel ?? "chat") === channel).length,
    })),
    topQuestions: groupQuestions(questions, REPORT_LIMITS.groups),
    // A question asked in another language than the docs' says nothing about what they lack.
    gaps: groupQuestions(
      declined.filter((question) => question.otherLanguage === undefined),
      REPORT_LIMITS.groups,
    ),
    downVoted: downVoted(questions, votes),
    ...citedPages(questions),
    revenue: revenueOf(payments, questions, range),
  };
};
