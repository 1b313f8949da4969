/** Tables of the console, built with DOM calls: every text from a visitor stays text. */
import { h } from "../../browser/dom.ts";
import { safeHref } from "../../browser/safe-url.ts";
import type { Report } from "./console-api.ts";

type Cell = Node | string | number;
type Page = { readonly title: string; readonly url: string; readonly page: string };

/** A link to a cited page (http(s) or relative only), or its name as text when it has no link. */
export const pageLink = ({ title, url, page }: Page): Node => {
  const href = safeHref(url);
  const text = title || page;
  return href === undefined
    ? h("span", { title: page }, text)
    : h("a", { href, target: "_blank", rel: "noopener noreferrer" }, text);
};

const links = (pages: ReadonlyArray<Page>) => h("span", { class: "links" }, ...pages.map(pageLink));

export const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

/**
 * A table with a header row; numeric columns (indices in `numeric`) align right, those in
 * `wideOnly` are left out on narrow screens; `empty` is said when there are no rows.
 */
export const table = (
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  empty: string,
  numeric: ReadonlyArray<number> = [],
  wideOnly: ReadonlyArray<number> = [],
) => {
  if (rows.length === 0) return h("p", { class: "empty" }, empty);
  const classOf = (i: number) =>
    [numeric.includes(i) ? "n" : "", wideOnly.includes(i) ? "hide-narrow" : ""].join(" ").trim() || undefined;
  const cell = (tag: "th" | "td", content: Cell, i: number) =>
    h(tag, { class: classOf(i) }, typeof content === "number" ? String(content) : content);
  return h(
    "table",
    {},
    h("thead", {}, h("tr", {}, ...headers.map((header, i) => cell("th", header, i)))),
    h("tbody", {}, ...rows.map((row) => h("tr", {}, ...row.map((content, i) => cell("td", content, i))))),
  );
};

/** The question and, under it, its other wordings. */
const questionCell = (group: Report["topQuestions"][number]) =>
  h(
    "div",
    {},
    group.question,
    ...group.variants
      .slice(1)
      .map((variant) => h("small", {}, `also: ${variant.question} (${variant.count})`)),
  );

export const topQuestionsTable = (groups: Report["topQuestions"]) =>
  table(
    ["Question", "Asked", "Declined", "Sources"],
    groups.map((group) => [questionCell(group), group.count, group.declined, links(group.sources)]),
    "No questions in this range.",
    [1, 2],
    [2],
  );

export const gapsTable = (groups: Report["gaps"]) =>
  table(
    ["Question the docs did not answer", "Asked", "Last asked (UTC)"],
    groups.map((group) => [questionCell(group), group.count, when(group.lastAskedAt)]),
    "No declined questions: the docs answered everything asked.",
    [1],
  );

export const downVotedTable = (answers: Report["downVoted"]) =>
  table(
    ["Question", "Voted (UTC)", "Cited pages"],
    answers.map((answer) => [
      h(
        "div",
        {},
        answer.question,
        answer.comment === null ? undefined : h("small", {}, `“${answer.comment}”`),
      ),
      when(answer.votedAt),
      links(answer.sources),
    ]),
    "No answer was voted down.",
  );

const REASON_TEXT = {
  "memo-not-ours": "no memo of ours",
  "late-refused": "late, route serves none",
} as const;

/** Transfers nobody was served: the owner refunds each to its payer by hand. */
export const unattributedTable = (payments: Report["unattributed"]) =>
  table(
    ["Time (UTC)", "Payer", "USDC", "Transaction", "Why"],
    payments.map((payment) => [
      when(payment.at),
      // Whole, to copy for the refund; broken anywhere so the table fits its card.
      h("code", { class: "addr" }, payment.payer || "several wallets"),
      payment.usdc,
      h("code", { class: "addr" }, payment.signature),
      payment.paymentId === ""
        ? REASON_TEXT[payment.reason]
        : `${REASON_TEXT[payment.reason]} (${payment.paymentId})`,
    ]),
    "No unattributed payments: every transfer in this range was served or credited.",
    [2],
    [3],
  );

export const pagesTable = (pages: Report["mostCitedPages"], empty: string) =>
  table(
    ["Page", "Citations"],
    pages.map((page) => [pageLink(page), page.citations]),
    empty,
    [1],
  );
