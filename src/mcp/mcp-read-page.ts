/**
 * `read_page`: one page (or one section) of the docs in full, by the URL or source a search
 * result gave, so an agent can quote more than a snippet. Pages are put back together from the
 * index's listing (core/doc-pages.ts), once per site and index version.
 */
import * as Effect from "effect/Effect";
import { type DocPage, docPages } from "../../core/doc-pages.ts";
import { RetrievalAsker, Retriever } from "../../core/ports/retrieval.ts";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";

/** Longest text one call returns: a long page is cut there, and says so. */
export const MAX_PAGE_CHARS = 30_000;

/**
 * The pages of the sites read lately, by site runtime, each with the index version it was built
 * from (a re-index changes the version). Per site: one cache for the process was rebuilt on every
 * call of an agent alternating between sites, and a version names an index, not the service, so
 * two sites' indexes can share one. At most PAGE_CACHE_SITES sites, the least recently read
 * dropped first: a site's pages are about its docs' size, and the indexes' own memory budget
 * (SITES_MEMORY_MB) does not count them.
 */
export const PAGE_CACHE_SITES = 8;
const cached = new Map<AppRuntime, { readonly version: string; readonly pages: ReadonlyArray<DocPage> }>();

const pagesNow = async (
  runtime: AppRuntime,
  asker: RetrievalAsker,
): Promise<ReadonlyArray<DocPage> | undefined> => {
  const listed = await runOutcome(
    runtime,
    Effect.flatMap(Retriever, (retriever) => retriever.listing).pipe(
      // On the client's count; free, only while the budget is plenty (RetrievalAsker).
      Effect.provideService(RetrievalAsker, asker),
    ),
  );
  if (!listed.ok) return undefined;
  const held = cached.get(runtime);
  const now =
    held?.version === listed.value.version
      ? held
      : { version: listed.value.version, pages: docPages(listed.value.chunks) };
  // Re-inserted, so the Map's order is the order of use.
  cached.delete(runtime);
  cached.set(runtime, now);
  for (const oldest of cached.keys()) {
    if (cached.size <= PAGE_CACHE_SITES) break;
    cached.delete(oldest);
  }
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
  /** Who reads: a priced read holds the client's questions, and loads a cold index as a question does. */
  asker: RetrievalAsker = { client: undefined, question: false },
): Promise<PageRead | "unknown" | "unavailable"> => {
  const pages = await pagesNow(runtime, asker);
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
