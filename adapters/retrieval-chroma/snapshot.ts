/**
 * The lexical side of Chroma retrieval: every record of the collection read in pages (text and
 * metadata, no vectors) into chunks, their BM25F tables and an id -> row map, tagged with the
 * collection's index version.
 */
import type { Collection } from "chromadb";
import * as Effect from "effect/Effect";
import type { ListedChunk } from "../../core/ports/retrieval.ts";
import { type Bm25Searcher, type Bm25Tables, bm25Searcher } from "../shared/ranking/bm25.ts";
import { buildLexicalTables } from "../shared/ranking/lexical.ts";
import { type ChromaOptions, chromaCall } from "./client.ts";

const PAGE = 1000;

export interface ChromaSnapshot {
  readonly version: string;
  readonly chunks: ReadonlyArray<ListedChunk>;
  readonly rowOf: ReadonlyMap<string, number>;
  readonly lexical: Bm25Searcher;
  readonly summary: {
    readonly files: number;
    readonly chunks: number;
    readonly version: string;
    readonly bytes: number;
    /** The language the lexical side was analysed in. */
    readonly language: string;
  };
}

/**
 * What a snapshot holds, estimated: its strings at 2 bytes a character (UTF-16, the worst
 * case of a JS string) and the BM25F tables' typed arrays and terms. Vectors stay in Chroma.
 */
export const heldBytes = (chunks: ReadonlyArray<ListedChunk>, tables: Bm25Tables): number => {
  let characters = 0;
  for (const chunk of chunks)
    characters +=
      chunk.id.length +
      chunk.text.length +
      chunk.title.length +
      chunk.heading.length +
      chunk.source.length +
      chunk.url.length +
      chunk.collection.length;
  for (const term of tables.terms) characters += term.length;
  return 2 * characters + tables.offsets.byteLength + tables.records.byteLength + tables.tfs.byteLength;
};

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The index version ingest recorded in the collection's metadata ("" before the first). */
export const versionIn = (collection: Collection): string => text(collection.metadata?.version);

/** Reads the whole collection and builds its lexical index. */
export const loadSnapshot = (
  options: ChromaOptions & { readonly language?: string | undefined },
  collection: Collection,
) =>
  Effect.gen(function* () {
    const version = versionIn(collection);
    const chunks: ListedChunk[] = [];
    const files = new Set<string>();
    for (let offset = 0; ; offset += PAGE) {
      const page = yield* chromaCall(options, "reading documents", () =>
        collection.get({ include: ["documents", "metadatas"], limit: PAGE, offset }),
      );
      page.ids.forEach((id, i) => {
        const metadata = page.metadatas[i];
        chunks.push({
          id,
          text: page.documents[i] ?? "",
          title: text(metadata?.title),
          heading: text(metadata?.heading),
          source: text(metadata?.source),
          url: text(metadata?.url),
          collection: text(metadata?.collection),
        });
        files.add(`${text(metadata?.collection)}\n${text(metadata?.source)}`);
      });
      if (page.ids.length < PAGE) break;
    }
    const tables = buildLexicalTables(chunks, options.language);
    return {
      version,
      chunks,
      rowOf: new Map(chunks.map((chunk, row) => [chunk.id, row])),
      lexical: bm25Searcher(tables),
      summary: {
        files: files.size,
        chunks: chunks.length,
        version,
        bytes: heldBytes(chunks, tables),
        language: tables.language,
      },
    } satisfies ChromaSnapshot;
  });
