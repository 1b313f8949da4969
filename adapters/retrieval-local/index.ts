/** The embedded default index: `LocalRetriever.layer({ indexPath })` (read) and `LocalIndex.layer(...)` (ingest). */

export { type IndexData, readIndexFile, writeIndexFile } from "./index-file.ts";
export * as LocalIndex from "./local-index.ts";
export * as LocalRetriever from "./local-retriever.ts";
