/**
 * GET /llms.txt and /llms-full.txt, generated from the index. Each request asks the retriever
 * for its listing (the same value until a re-index, so this is cheap on both indexes) and the
 * text is rebuilt only when the listing's version changed: a finished ingest shows up at the
 * first request after the service has loaded it.
 */
import * as Effect from "effect/Effect";
import { type Context, Hono } from "hono";
import { type DocPage, docPages } from "../../../core/doc-pages.ts";
import { RetrievalAsker, Retriever } from "../../../core/ports/retrieval.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import { unavailableResponse } from "../error-response.ts";
import { llmsFullTxt, llmsTxt } from "../llms-txt.ts";

const listing = Effect.flatMap(Retriever, (retriever) => retriever.listing);

/** The routes, mounted at the site's root; `title` heads the text (default: the docs' front page). */
export const llmsTxtRoutes = (runtime: AppRuntime, title?: string) => {
  const serve = (
    render: (pages: ReadonlyArray<DocPage>, title: string | undefined, base: string) => string,
  ) => {
    // One text per base path the site is asked under (its host names, `/sites/<id>`): two at most.
    const kept = new Map<string, { readonly version: string; readonly text: string }>();
    return async (c: Context<AppEnv>) => {
      // Public and free: a cold index loads on the client's count, and only while the budget is plenty.
      const asker = { client: c.env.identity, question: false };
      const outcome = await runOutcome(runtime, Effect.provideService(listing, RetrievalAsker, asker));
      if (!outcome.ok) return unavailableResponse(c, outcome.error);
      const { version, chunks } = outcome.value;
      const base = c.env.basePath;
      let text = kept.get(base);
      if (text?.version !== version) {
        text = { version, text: render(docPages(chunks), title, base) };
        kept.set(base, text);
      }
      return c.body(text.text, 200, {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "public, max-age=60",
        ETag: `"${version}"`,
      });
    };
  };
  return new Hono<AppEnv>().get("/llms.txt", serve(llmsTxt)).get("/llms-full.txt", serve(llmsFullTxt));
};
