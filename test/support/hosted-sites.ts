/**
 * The setup the tests of hosted sites share: sample sites, each with docs of its own about a
 * made-up product (and a question only those docs answer), the default site's service guide;
 * a describe run on every store (one app on memory, and two instances of one Redis); /metrics
 * behind a token; a loopback JSON-RPC upstream for the RPC relay.
 */
import { afterAll, beforeAll, describe } from "bun:test";
import * as Redacted from "effect/Redacted";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import { redisServerAvailable } from "./redis-server.ts";
import { useRedisServer } from "./shared-redis.ts";
import {
  buildSitesApp,
  docsFolder,
  type SitesAppOptions,
  type SitesService,
  siteDefinition,
  sitesInstances,
  useInstances,
} from "./sites-app.ts";

/** The products of the sample sites: a page each, and the question it answers. */
const PRODUCTS = {
  alpha: {
    page: "# Zorblax\n\nThe Zorblax frobnicator takes a level from one to nine.\n",
    question: "What level does the Zorblax frobnicator take?",
  },
  beta: {
    page: "# Quuxly\n\nQuuxly shards every widget table by tenant.\n",
    question: "How does Quuxly shard widget tables?",
  },
  gamma: {
    page: "# Wibble\n\nWibble caches every answer for an hour.\n",
    question: "How long does Wibble cache answers?",
  },
  delta: {
    page: "# Frotz\n\nFrotz compresses each log file with zstd.\n",
    question: "How does Frotz compress log files?",
  },
} as const;

export type SampleSiteId = keyof typeof PRODUCTS;

/** The question each sample site's docs answer (and no other site's). */
export const QUESTIONS: { readonly [Id in SampleSiteId]: (typeof PRODUCTS)[Id]["question"] } = {
  alpha: PRODUCTS.alpha.question,
  beta: PRODUCTS.beta.question,
  gamma: PRODUCTS.gamma.question,
  delta: PRODUCTS.delta.question,
};

/**
 * The default site's docs (a service guide) and a hosted site for each of `ids`, in that order,
 * each with its docs in a folder of its own (`<id>.md`); `fields` over a definition's defaults.
 */
export const sampleSites = <Id extends SampleSiteId>(
  ids: ReadonlyArray<Id>,
  fields: (id: Id) => Partial<SiteDefinition> = () => ({}),
) => {
  const defaultDocs = docsFolder({ "guide.md": "# Service guide\n\nStart the service with npm start.\n" });
  const docs = Object.fromEntries(
    ids.map((id) => [id, docsFolder({ [`${id}.md`]: PRODUCTS[id].page })]),
  ) as Record<Id, string>;
  const sites = ids.map((id) => ({
    definition: siteDefinition(id, { docs: { kind: "folder", path: docs[id] }, ...fields(id) }),
    folder: docs[id],
  }));
  return { defaultDocs, docs, sites };
};

/** The METRICS_TOKEN of the sites tests that read /metrics: `surface` in their options. */
export const METRICS = "metrics-token-0123456789abcdef";
export const metricsSurface = { metricsToken: Redacted.make(METRICS) };

/** The text of `service`'s /metrics. */
export const metricsOf = async (service: SitesService): Promise<string> =>
  (await service.call("/metrics", { headers: { Authorization: `Bearer ${METRICS}` } })).text();

/**
 * One app hosting sites, built from `options` (called then) before the file's tests, handed to
 * `use`, and disposed after them.
 */
export const useSitesApp = (options: () => SitesAppOptions, use: (service: SitesService) => void) => {
  let built: SitesService | undefined;
  beforeAll(async () => {
    built = await buildSitesApp(options());
    use(built);
  });
  afterAll(() => built?.dispose());
};

/** The instances a block's tests talk to: on memory `one` and `two` are the same instance. */
export interface Instances {
  one: SitesService;
  two: SitesService;
}

/**
 * Describes `body` on each store (`title`'s %s names it): one app on memory and, when a
 * redis-server is at hand, two apps on one Redis (a fresh database each), as two instances of one
 * deployment. The instances are built from `options` (called then) before the block's tests,
 * set on the object `body` gets, and disposed after them.
 */
export const describeOnStores = (
  title: string,
  options: () => SitesAppOptions,
  body: (instances: Instances) => void,
): void => {
  const redis = redisServerAvailable() ? useRedisServer() : undefined;
  const stores = sitesInstances(redis, (redisUrl) => ({
    ...options(),
    ...(redisUrl === undefined ? {} : { redisUrl }),
  }));
  describe.each(stores)(title, (_name, open) => {
    const instances = {} as Instances;
    useInstances(open, (one, two) => {
      instances.one = one;
      instances.two = two;
    });
    body(instances);
  });
};

/**
 * A loopback JSON-RPC upstream, started before the file's tests and stopped after them: each call
 * is answered `result(method)`. `url()` is its address once started.
 */
export const useRpcUpstream = (result: (method: string) => unknown) => {
  let upstream: ReturnType<typeof Bun.serve> | undefined;
  beforeAll(() => {
    upstream = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (request) => {
        const { id, method } = (await request.json()) as { id: unknown; method: string };
        return Response.json({ jsonrpc: "2.0", id, result: result(method) });
      },
    });
  });
  afterAll(() => upstream?.stop(true));
  return { url: () => `http://127.0.0.1:${upstream?.port}` };
};
