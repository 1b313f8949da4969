/** The console's report view: figures, the two charts and the tables. */
import { h } from "../../browser/dom.ts";
import { barChart } from "./chart.ts";
import type { Report } from "./console-api.ts";
import {
  downVotedTable,
  gapsTable,
  pagesTable,
  table,
  topQuestionsTable,
  unattributedTable,
} from "./tables.ts";

const card = (value: string | number, label: string) =>
  h("div", { class: "card" }, h("b", {}, String(value)), h("span", {}, label));

const section = (title: string, note: string | undefined, ...content: ReadonlyArray<Node>) =>
  h(
    "section",
    {},
    h("h2", {}, title),
    note === undefined ? undefined : h("p", { class: "note" }, note),
    ...content,
  );

/** USDC from base units, for axis ticks and bar titles (exact figures are in the cards). */
const usdc = (units: number) => (units / 1_000_000).toFixed(units % 10_000 === 0 ? 2 : 3);

/** The last sync of the docs site: when, how many pages, what changed, or why it failed. */
const docsSyncSection = (sync: Report["docsSync"]) => {
  if (sync === null) return undefined;
  const when = new Date(sync.at).toISOString().replace("T", " ").slice(0, 16);
  const note = sync.ok
    ? `${sync.url}, found by ${sync.via}, in ${(sync.durationMs / 1000).toFixed(1)} s.`
    : `Failed: ${sync.problem ?? "unknown"}. The previous index is still serving.`;
  return section(
    "Docs sync",
    note,
    table(
      ["Last sync (UTC)", "Pages", "Changed", "Removed", "Errors"],
      [[when, sync.ok ? sync.pages : "-", sync.changed, sync.removed, sync.errors]],
      "",
      [1, 2, 3, 4],
    ),
  );
};

export const reportView = (report: Report): ReadonlyArray<Node> => {
  const { totals, revenue } = report;
  const days = report.questionsPerDay.map((day) => day.day);
  const questionsChart = barChart({
    days,
    series: [
      {
        name: "answered",
        className: "",
        values: report.questionsPerDay.map((d) => d.questions - d.declined),
      },
      { name: "declined", className: "declined", values: report.questionsPerDay.map((d) => d.declined) },
    ],
    format: (n) => String(Math.round(n)),
    minTop: 4,
    summary: `${totals.questions} questions from ${report.from} to ${report.to}, ${totals.declined} declined`,
  });
  const revenueChart = barChart({
    days: revenue.perDay.map((day) => day.day),
    series: [{ name: "USDC", className: "revenue", values: revenue.perDay.map((d) => d.units) }],
    format: usdc,
    minTop: 10_000,
    summary: `${revenue.usdc} USDC from ${revenue.payments} payments from ${report.from} to ${report.to}`,
  });
  return [
    h(
      "div",
      { class: "cards" },
      card(totals.questions, "questions"),
      card(totals.answered, "answered from the docs"),
      card(totals.declined, "declined (docs gaps)"),
      card(`${totals.votesUp} / ${totals.votesDown}`, "votes up / down"),
      card(`${revenue.usdc} USDC`, `revenue, ${revenue.payments} payments`),
      card(revenue.payingClients, "paying clients"),
      card(`${revenue.queriesUsed} / ${revenue.queriesBought}`, "paid queries used / bought"),
      card(`${totals.latencyP50Ms} ms`, `median answer time (p95 ${totals.latencyP95Ms} ms)`),
    ),
    h(
      "div",
      { class: "grid" },
      section(
        "Questions per day",
        undefined,
        questionsChart,
        h(
          "div",
          { class: "legend" },
          h("span", {}, h("i"), "answered"),
          h("span", {}, h("i", { class: "declined" }), "declined"),
        ),
      ),
      section("Revenue per day (USDC)", undefined, revenueChart),
      section(
        "Top questions",
        "Near-duplicates grouped: same words, or the same top passages.",
        topQuestionsTable(report.topQuestions),
      ),
      section(
        "Docs gaps",
        "Questions declined because the docs had nothing on them: what to write next.",
        gapsTable(report.gaps),
      ),
      section("Answers voted down", undefined, downVotedTable(report.downVoted)),
      section("Most cited pages", undefined, pagesTable(report.mostCitedPages, "No page was cited.")),
      section(
        "Least cited pages",
        "Of the pages cited at least once.",
        pagesTable(report.leastCitedPages, "Every cited page is listed above."),
      ),
      section(
        "Questions by channel",
        "The chat (the widget and the HTTP API) and the MCP endpoint (coding agents).",
        table(
          ["Channel", "Questions"],
          report.questionsByChannel.map((row) => [
            row.channel === "mcp" ? "MCP (agents)" : "chat",
            row.questions,
          ]),
          "",
          [1],
        ),
      ),
      docsSyncSection(report.docsSync),
      section(
        "Unattributed payments",
        "Transfers to your wallet that nobody was served or credited: refund each to its payer by hand.",
        unattributedTable(report.unattributed),
      ),
      section(
        "Payments by dialect",
        undefined,
        table(
          ["Dialect", "Payments", "USDC"],
          revenue.byDialect.map((row) => [row.dialect, row.payments, row.usdc]),
          "",
          [1, 2],
        ),
      ),
      section(
        "Receipts issued",
        "The signed receipts (x402 offer-receipt, JWS) payers were given, newest first; the full JWS is in the export and /api/admin/insights.",
        table(
          ["When (UTC)", "Dialect", "USDC", "Receipt"],
          revenue.receipts.map((row) => [
            new Date(row.at).toISOString().slice(0, 19).replace("T", " "),
            row.dialect,
            row.usdc,
            `${row.receipt.slice(0, 24)}…${row.receipt.slice(-12)}`,
          ]),
          "No signed receipts in this range.",
          [2],
        ),
      ),
    ),
  ];
};
