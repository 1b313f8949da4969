/**
 * `read_page`: one page (or one section) of the docs in full, by the URL or source a search
 * result gave, so an agent can quote more than a snippet. Pages are put back together from the
 * index's listing (core/doc-pages.ts), once per index version.
 */
import * as Effect from "effect/Effect";
import { type DocPage, docPages } from "../../core/doc-pages.ts";
import { Retriever } from "../../core/ports/retrieval.ts";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";

/** Longest text one call returns: a long page is cut there, and says so. */
export const MAX_PAGE_CHARS = 30_000;

/** The pages of the last index version seen (a re-index changes the version). */
let cached: { readonly version: string; readonly pages: ReadonlyArray<DocPage> } | undefined;

const pagesNow = async (runtime: AppRuntime): Promise<ReadonlyArray<DocPage> | undefined> => {
  const listed = await runOutcome(
    runtime,
    Effect.flatMap(Retriever, (retriever) => retriever.listing),
  );
  if (!listed.ok) return undefined;
  const now =
    cached?.version === listed.value.version
      ? cached
      : { version: listed.value.version, pages: docPages(listed.value.chunks) };
  cached = now;
  return now.pages;
};

export interface PageRead {
  readonly title: string;
  readonly url: string;
  readonly source: string;
  readonly sections: ReadonlyArray<{ readonly heading: string; readonly url: string; readonly text: string }>;
  readonly truncated: boolean;
}

/** The page `wanted` names (its URL, with an anchor for one section, or its source path), or why not. */
export const readPage = async (
  runtime: AppRuntime,
  wanted: string,
): Promise<PageRead | "unknown" | "unavailable"> => {
  const pages = await pagesNow(runtime);
  if (pages === undefined) return "unavailable";
  const [base = ""] = wanted.split("#");
  const page = pages.find(
    (p) => (p.url !== "" && p.url === base) || p.source === wanted || p.source === base,
  );
  if (page === undefined) return "unknown";
  const only = wanted.includes("#") ? page.sections.filter((s) => s.url === wanted) : [];
  const sections = only.length > 0 ? only : page.sections;
  let left = MAX_PAGE_CHARS;
  const kept = sections.flatMap((section) => {
    if (left <= 0) return [];
    const text = section.text.slice(0, left);
    left -= text.length;
    return [{ heading: section.heading, url: section.url, text }];
  });
  const truncated =
    kept.length < sections.length || kept.at(-1)?.text.length !== sections[kept.length - 1]?.text.length;
  return { title: page.title, url: page.url, source: page.source, sections: kept, truncated };
};
