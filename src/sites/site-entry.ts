/** A site as the edge routes to it (site-routing.ts): its router, its widget origins' CORS, its host names. */
import type { AppEnv } from "../hono-kit/app-env.ts";
import { corsPolicy } from "../http/edge/cors.ts";
import type { DirectoryEntry } from "./site-directory.ts";

interface Fetching {
  readonly fetch: (request: Request, env: AppEnv["Bindings"]) => Response | Promise<Response>;
}

export const directoryEntry = (
  id: string,
  router: Fetching,
  origins: ReadonlyArray<string>,
  hosts: ReadonlyArray<string>,
): DirectoryEntry => {
  // Taken now: the root site's router has its `fetch` replaced by the edge's afterwards.
  const dispatch = router.fetch.bind(router);
  const widgetOrigins = new Set(origins);
  return {
    id,
    dispatch: (request, facts) => dispatch(request, facts),
    cors: corsPolicy(origins),
    servesOrigin: (origin) => widgetOrigins.has(origin),
    hosts,
  };
};
