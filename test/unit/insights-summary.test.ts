/** The insights report from known events: every figure checked by hand, and the range rules. */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { dayRange, formatDay, parseDay } from "../../core/insights/day-range.ts";
import { summarize } from "../../core/insights/summarize.ts";
import { DAY_MS, utcDay } from "../../core/time.ts";
import { payment, question, source, T0, vote } from "../support/insight-events.ts";

const DAY14 = Date.UTC(2030, 0, 14, 9);
const DAY15 = T0; // 2030-01-15 12:00 UTC
const range = { fromDay: utcDay(DAY14), toDay: utcDay(DAY15) };

describe("summarize", () => {
  const events = [
    question("How do I pay?", {
      at: DAY14,
      answerId: "a1",
      sources: [source("pay"), source("price", false)],
      latencyMs: 30,
    }),
    question("how do i pay", {
      at: DAY15,
      answerId: "a2",
      billing: "paid",
      conversation: "c1",
      sources: [source("pay")],
      latencyMs: 10,
    }),
    question("Как оплатить?", {
      at: DAY15,
      declined: true,
      billing: "uncharged",
      answerId: "a3",
      latencyMs: 1,
    }),
    question("Как оплатить?", {
      at: DAY15 + 1,
      declined: true,
      billing: "uncharged",
      conversation: "c1",
      latencyMs: 2,
    }),
    question("Where are logs?", {
      at: DAY15 + 2,
      answerId: "a4",
      billing: "paid",
      sources: [source("logs"), source("logs-2", true, "https://docs.example.com/logs.html")],
      latencyMs: 20,
    }),
    // Outside the range: not counted, though their votes and payments exist.
    question("Too early", { at: DAY14 - DAY_MS, answerId: "a0" }),
    question("Too late", { at: DAY15 + DAY_MS, answerId: "a9" }),
    vote("a1", { at: DAY14 + 5, vote: "down" }),
    vote("a1", { at: DAY14 + 6, vote: "up" }), // the later vote wins
    vote("a4", { at: DAY15 + 3 * DAY_MS, vote: "down", comment: "logs are elsewhere" }), // after the range: still counts
    vote("a0", { at: DAY14, vote: "down" }), // for a question outside the range
    payment(10_000, { at: DAY14, visitor: "v1", queries: 10 }),
    payment(50_000, { at: DAY15, visitor: "v1", queries: 50 }),
    payment(99_000, { at: DAY15, visitor: "v2", queries: 100, dialect: "x402" }),
    payment(1_000_000, { at: DAY15 + DAY_MS, visitor: "v3", queries: 1000 }),
  ];
  const report = summarize(events, range);

  test("totals and questions per day", () => {
    expect(report.from).toBe("2030-01-14");
    expect(report.to).toBe("2030-01-15");
    expect(report.totals).toEqual({
      questions: 5,
      answered: 3,
      declined: 2,
      free: 1,
      paid: 2,
      votesUp: 1,
      votesDown: 1,
      conversations: 1,
      latencyP50Ms: 10,
      latencyP95Ms: 30,
    });
    expect(report.questionsPerDay).toEqual([
      { day: "2030-01-14", questions: 1, declined: 0 },
      { day: "2030-01-15", questions: 4, declined: 2 },
    ]);
  });

  test("top questions grouped, gaps from the declined ones, answers voted down with their cited pages", () => {
    // Equal counts: the most recently asked first.
    expect(report.topQuestions.map((g) => [g.question, g.count, g.declined])).toEqual([
      ["Как оплатить?", 2, 2],
      ["how do i pay", 2, 0],
      ["Where are logs?", 1, 0],
    ]);
    expect(report.gaps.map((g) => [g.question, g.count, g.lastAskedAt])).toEqual([
      ["Как оплатить?", 2, DAY15 + 1],
    ]);
    expect(report.downVoted).toEqual([
      {
        question: "Where are logs?",
        answerId: "a4",
        askedAt: DAY15 + 2,
        votedAt: DAY15 + 3 * DAY_MS,
        comment: "logs are elsewhere",
        // Two cited passages of one page: one link.
        sources: [
          {
            title: "Title of logs",
            url: "https://docs.example.com/logs.html#logs",
            page: "https://docs.example.com/logs.html",
          },
        ],
      },
    ]);
  });

  test("a question declined for its language is counted as declined but is no docs gap", () => {
    const day = formatDay(utcDay(T0));
    const range = Result.getOrThrow(dayRange({ from: day, to: day }, T0));
    const asked = summarize(
      [
        question("Wie lange hält der Akku?", { declined: true, billing: "uncharged", otherLanguage: "de" }),
        question("Who painted the Mona Lisa?", { declined: true, billing: "uncharged" }),
      ],
      range,
    );
    expect(asked.totals.declined).toBe(2);
    expect(asked.gaps.map((g) => g.question)).toEqual(["Who painted the Mona Lisa?"]);
  });

  test("cited pages count citations, not retrievals", () => {
    expect(report.mostCitedPages.map((p) => [p.page, p.citations])).toEqual([
      ["https://docs.example.com/logs.html", 2],
      ["https://docs.example.com/pay.html", 2],
    ]);
    expect(report.leastCitedPages).toEqual([]);
    const many = Array.from({ length: 13 }, (_, i) =>
      question(`q${i}`, { sources: Array.from({ length: i + 1 }, () => source(`p${i}`)).slice(0, 5) }),
    );
    const pages = summarize(many, { fromDay: utcDay(T0), toDay: utcDay(T0) });
    expect(pages.mostCitedPages.map((p) => p.citations)).toEqual([5, 5, 5, 5, 5, 5, 5, 5, 5, 4]);
    expect(pages.leastCitedPages.map((p) => p.citations)).toEqual([1, 2, 3]);
  });

  test("revenue per day in exact USDC, paying clients, queries bought against used, by dialect", () => {
    expect(report.revenue).toEqual({
      units: 159_000,
      usdc: "0.159",
      payments: 3,
      payingClients: 2,
      queriesBought: 160,
      queriesUsed: 2,
      perDay: [
        { day: "2030-01-14", units: 10_000, usdc: "0.01", payments: 1, payingClients: 1 },
        { day: "2030-01-15", units: 149_000, usdc: "0.149", payments: 2, payingClients: 2 },
      ],
      byDialect: [
        { dialect: "signature", payments: 2, units: 60_000, usdc: "0.06" },
        { dialect: "x402", payments: 1, units: 99_000, usdc: "0.099" },
        { dialect: "x402-v2", payments: 0, units: 0, usdc: "0.00" },
        { dialect: "x402-mcp", payments: 0, units: 0, usdc: "0.00" },
      ],
      receipts: [],
    });
  });

  test("the receipts issued in the range are listed newest first, with their amount and dialect", () => {
    const receipts = summarize(
      [
        payment(10_000, { at: DAY14, visitor: "v1", queries: 10, dialect: "x402-v2", receipt: "h.older.s" }),
        payment(20_000, { at: DAY15, visitor: "v2", queries: 20, dialect: "x402-mcp", receipt: "h.newer.s" }),
        payment(30_000, { at: DAY15, visitor: "v3", queries: 30 }),
      ],
      { fromDay: utcDay(DAY14), toDay: utcDay(DAY15) },
    ).revenue.receipts;
    expect(receipts).toEqual([
      { at: DAY15, dialect: "x402-mcp", units: 20_000, usdc: "0.02", receipt: "h.newer.s" },
      { at: DAY14, dialect: "x402-v2", units: 10_000, usdc: "0.01", receipt: "h.older.s" },
    ]);
  });

  test("questions by channel: the MCP endpoint's apart; events recorded before channels count as the chat's", () => {
    const report = summarize(
      [question("a"), question("b", { channel: "chat" }), question("c", { channel: "mcp" })],
      { fromDay: utcDay(T0), toDay: utcDay(T0) },
    );
    expect(report.questionsByChannel).toEqual([
      { channel: "chat", questions: 2 },
      { channel: "mcp", questions: 1 },
    ]);
  });

  test("an empty range is all zeros, one entry per day", () => {
    const empty = summarize([], { fromDay: 0, toDay: 2 });
    expect(empty.questionsPerDay.map((d) => d.day)).toEqual(["1970-01-01", "1970-01-02", "1970-01-03"]);
    expect(empty.totals.latencyP95Ms).toBe(0);
    expect(empty.revenue.usdc).toBe("0.00");
    expect(empty.topQuestions).toEqual([]);
  });
});

describe("the day range", () => {
  const now = Date.UTC(2030, 0, 31, 23, 59);
  test("defaults to the last 30 days up to today", () => {
    const range = Result.getOrThrow(dayRange({}, now));
    expect([formatDay(range.fromDay), formatDay(range.toDay)]).toEqual(["2030-01-02", "2030-01-31"]);
    const from = Result.getOrThrow(dayRange({ to: "2030-03-01" }, now));
    expect(formatDay(from.fromDay)).toBe("2030-01-31");
  });

  test("refuses dates that do not exist, reversed ranges and ranges over a year", () => {
    expect(parseDay("2030-02-30")).toBeUndefined();
    expect(parseDay("2030-1-5")).toBeUndefined();
    expect(parseDay("1969-12-31")).toBeUndefined();
    expect(parseDay("2032-02-29")).toBe(utcDay(Date.UTC(2032, 1, 29)));
    expect(dayRange({ from: "2030-02-30" }, now)).toEqual(Result.fail("from must be a date like 2030-01-01"));
    expect(dayRange({ to: "tomorrow" }, now)).toEqual(Result.fail("to must be a date like 2030-01-31"));
    expect(dayRange({ from: "2030-01-05", to: "2030-01-04" }, now)).toEqual(
      Result.fail("from must not be after to"),
    );
    expect(dayRange({ from: "2029-01-01", to: "2030-01-02" }, now)).toEqual(
      Result.fail("a range covers at most 366 days"),
    );
    expect(Result.isSuccess(dayRange({ from: "2029-01-02", to: "2030-01-02" }, now))).toBe(true);
  });
});
