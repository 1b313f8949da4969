/**
 * The name the owner's console shows in its title and header, so an operator with several
 * sites' consoles open (or a docs owner with a bookmark) knows whose figures these are: a
 * hosted site's title (else its id), with its id; the default site's docs' title, as
 * /llms.txt is headed (the front page's title), read from the index's listing and kept until
 * the index changes. An index that cannot be read names the default site plainly.
 */
import * as Effect from "effect/Effect";
import { docPages, docsTitle } from "../../../core/doc-pages.ts";
import { Retriever } from "../../../core/ports/retrieval.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";

export interface ConsoleName {
  readonly name: string;
  /** A hosted site's id, shown beside its title. */
  readonly id?: string | undefined;
}

/** Without an index to read its title from. */
export const DEFAULT_SITE_NAME = "default site";

const listing = Effect.flatMap(Retriever, (retriever) => retriever.listing);

/** The console's name: `site` is the hosted site's (undefined: the default site's console). */
export const consoleNamer = (
  runtime: AppRuntime,
  site: { readonly id: string; readonly title: string | undefined } | undefined,
): (() => Promise<ConsoleName>) => {
  if (site !== undefined) {
    const named: ConsoleName =
      site.title === undefined ? { name: site.id } : { name: site.title, id: site.id };
    return async () => named;
  }
  let kept: { readonly version: string; readonly name: ConsoleName } | undefined;
  return async () => {
    const outcome = await runOutcome(runtime, listing);
    if (!outcome.ok) return kept?.name ?? { name: DEFAULT_SITE_NAME };
    const { version, chunks } = outcome.value;
    if (kept?.version !== version)
      kept = {
        version,
        name: { name: chunks.length === 0 ? DEFAULT_SITE_NAME : docsTitle(docPages(chunks), undefined) },
      };
    return kept.name;
  };
};
