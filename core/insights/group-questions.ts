/**
 * Near-duplicate questions grouped: two questions are one when their grouping keys are equal
 * (same words, whatever the case, accents or punctuation), or when the same top passages were
 * retrieved for both (the first three, in order, by chunk id: the index itself says they ask
 * the same thing). Grouping is transitive (union-find), so the result is a partition that does not
 * depend on the order of the events.
 */
import type { QuestionEvent } from "./events.ts";
import type { PageLink, QuestionGroup } from "./report.ts";
import { groupingKey } from "./text.ts";

/** How many of the top passages must match for two questions to be grouped by their sources. */
export const TOP_SOURCES_COMPARED = 3;
const VARIANTS_SHOWN = 5;
const SOURCES_SHOWN = 3;

/** The keys an event is known by: its words, and its top sources when it has any. */
const keysOf = (event: QuestionEvent): ReadonlyArray<string> => {
  const keys = [`t:${groupingKey(event.question)}`];
  const top = event.sources.slice(0, TOP_SOURCES_COMPARED);
  if (top.length > 0) keys.push(`s:${top.map((source) => source.passage).join("\n")}`);
  return keys;
};

/** Indices of `events` partitioned into groups. */
export const partition = (events: ReadonlyArray<QuestionEvent>): ReadonlyArray<ReadonlyArray<number>> => {
  const parent = events.map((_, i) => i);
  const root = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] as number;
    parent[i] = r;
    return r;
  };
  const firstWithKey = new Map<string, number>();
  events.forEach((event, i) => {
    for (const key of keysOf(event)) {
      const first = firstWithKey.get(key);
      if (first === undefined) firstWithKey.set(key, i);
      else parent[root(i)] = root(first);
    }
  });
  const groups = new Map<number, number[]>();
  events.forEach((_, i) => {
    const r = root(i);
    const members = groups.get(r) ?? [];
    members.push(i);
    groups.set(r, members);
  });
  return [...groups.values()];
};

/** Entries counted, most first; ties by `tieBreak`. */
const ranked = <A>(counts: Map<string, { count: number; value: A }>, tieBreak: (a: A, b: A) => number) =>
  [...counts.values()].sort((a, b) => b.count - a.count || tieBreak(a.value, b.value));

const summarizeGroup = (members: ReadonlyArray<QuestionEvent>): QuestionGroup => {
  const wordings = new Map<string, { count: number; value: { text: string; at: number } }>();
  const pages = new Map<string, { count: number; value: PageLink }>();
  for (const event of members) {
    const wording = wordings.get(event.question) ?? { count: 0, value: { text: event.question, at: 0 } };
    wording.count += 1;
    wording.value.at = Math.max(wording.value.at, event.at);
    wordings.set(event.question, wording);
    for (const { title, url, page } of event.sources) {
      const seen = pages.get(page) ?? { count: 0, value: { title, url, page } };
      seen.count += 1;
      pages.set(page, seen);
    }
  }
  const variants = ranked(wordings, (a, b) => b.at - a.at || (a.text < b.text ? -1 : 1));
  return {
    question: variants[0]?.value.text ?? "",
    count: members.length,
    declined: members.filter((event) => event.declined).length,
    variants: variants.slice(0, VARIANTS_SHOWN).map(({ count, value }) => ({ question: value.text, count })),
    sources: ranked(pages, (a, b) => (a.page < b.page ? -1 : 1))
      .slice(0, SOURCES_SHOWN)
      .map(({ value }) => value),
    lastAskedAt: Math.max(...members.map((event) => event.at)),
  };
};

/** The `limit` largest groups of `events`, most asked first (then most recent). */
export const groupQuestions = (events: ReadonlyArray<QuestionEvent>, limit: number): QuestionGroup[] =>
  partition(events)
    .map((indices) => summarizeGroup(indices.map((i) => events[i] as QuestionEvent)))
    .sort((a, b) => b.count - a.count || b.lastAskedAt - a.lastAskedAt || (a.question < b.question ? -1 : 1))
    .slice(0, limit);
