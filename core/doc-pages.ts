/**
 * The index's passages put back together as pages (for /llms.txt and /llms-full.txt): one page
 * per source file of a collection, its sections in the order the index keeps them, each
 * section's passages in their ordinal order with the overlap ingest repeats at the start of a
 * passage (the previous passage's last sentences) taken out again. Pure: the same listing gives
 * the same pages on the local index and on Chroma (pages sorted by collection and source).
 */
import type { ListedChunk } from "./ports/retrieval.ts";

export interface DocSection {
  /** Heading path below the title ("" at the top of the page). */
  readonly heading: string;
  /** The section's public URL with its anchor, or "". */
  readonly url: string;
  readonly text: string;
}

export interface DocPage {
  readonly collection: string;
  readonly source: string;
  readonly title: string;
  /** The page's public URL without anchor, or "" when ingested without a base URL. */
  readonly url: string;
  readonly sections: ReadonlyArray<DocSection>;
}

/** The ordinal ingest gives a chunk within its section (the id's last `:n`); 0 when it has none. */
const ordinalOf = (id: string): number => {
  const match = /:(\d+)$/.exec(id);
  return match === null ? 0 : Number(match[1]);
};

/** How far back in the previous passage the repeated tail can start (40 tokens, generously). */
const OVERLAP_WINDOW = 2000;
const PROBE = 24;

/** `next` without the tail of `previous` it starts with; unchanged when it starts with none. */
export const withoutOverlap = (previous: string, next: string): string => {
  const probe = next.slice(0, Math.min(PROBE, next.length));
  if (probe === "") return next;
  const from = Math.max(0, previous.length - OVERLAP_WINDOW);
  // The earliest match is the longest overlap.
  for (let at = previous.indexOf(probe, from); at !== -1; at = previous.indexOf(probe, at + 1)) {
    const tail = previous.slice(at);
    if (next.startsWith(tail)) return next.slice(tail.length).trimStart();
  }
  return next;
};

const pageKey = (chunk: ListedChunk) => `${chunk.collection}\n${chunk.source}`;

const sectionOf = (heading: string, chunks: ReadonlyArray<ListedChunk>): DocSection => {
  const ordered = [...chunks].sort((a, b) => ordinalOf(a.id) - ordinalOf(b.id));
  const texts = ordered.map((chunk, i) =>
    i === 0 ? chunk.text : withoutOverlap(ordered[i - 1]!.text, chunk.text),
  );
  return {
    heading,
    url: ordered[0]!.url,
    text: texts.filter((text) => text !== "").join("\n\n"),
  };
};

/** The pages of an index listing, sorted by collection and source. */
export const docPages = (chunks: ReadonlyArray<ListedChunk>): ReadonlyArray<DocPage> => {
  const pages = new Map<string, Map<string, ListedChunk[]>>();
  for (const chunk of chunks) {
    const sections = pages.get(pageKey(chunk)) ?? new Map<string, ListedChunk[]>();
    pages.set(pageKey(chunk), sections);
    const section = sections.get(chunk.heading);
    if (section === undefined) sections.set(chunk.heading, [chunk]);
    else section.push(chunk);
  }
  return [...pages.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, sections]) => {
      const first = sections.values().next().value![0]!;
      return {
        collection: first.collection,
        source: first.source,
        title: first.title,
        url: first.url.split("#")[0]!,
        sections: [...sections].map(([heading, list]) => sectionOf(heading, list)),
      };
    });
};

/**
 * The docs' title: the site's own (a hosted site's title or product name), else the docs' front
 * page (index or README at the top), else the collections' names. /llms.txt is headed with it
 * and the owner's console is named by it.
 */
export const docsTitle = (pages: ReadonlyArray<DocPage>, title: string | undefined): string => {
  if (title !== undefined && title.trim() !== "") return title.replace(/\s+/g, " ").trim();
  const front = pages.find((page) => /^(index|readme)\.[a-z]+$/i.test(page.source) && page.title !== "");
  if (front !== undefined) return front.title;
  const names = [...new Set(pages.map((page) => page.collection))];
  return names.length === 0 ? "Documentation" : `${names.join(", ")} documentation`;
};
