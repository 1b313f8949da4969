/**
 * A hosted site's routes and what follows its payments: every site's routes (site-router.ts)
 * built over the site's runtime and settings (its wallet in the relay, its console's door, its
 * page), its directory entry for the edge, and its reconciler of pending settlements under its
 * own lease.
 */
import * as Context from "effect/Context";
import type { AppConfig, ChainConfig } from "../../core/config/config.ts";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import type { DocsSyncRecord } from "../../core/ports/docs-sync.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { runOutcome } from "../hono-kit/run-effect.ts";
import { SITES_PREFIX } from "../http/edge/site-routing.ts";
import type { Logger } from "../observability/log.ts";
import { startReconciler } from "../payments/v2/reconciler.ts";
import type { RouterDeps } from "../routers/service-deps.ts";
import { siteRouter } from "../routers/site-router.ts";
import { siteDemoPage } from "../web/site-demo-page.ts";
import type { ServiceParts, SiteRuntime } from "./hosted-site.ts";
import { ownerHosts } from "./owner-hosts.ts";
import type { DirectoryEntry } from "./site-directory.ts";
import { directoryEntry } from "./site-entry.ts";
import type { SiteStore } from "./site-store.ts";

export interface SiteRoutesInput {
  readonly definition: SiteDefinition;
  readonly config: AppConfig;
  readonly chain: ChainConfig;
  readonly store: SiteStore;
  readonly served: SiteRuntime;
  readonly parts: ServiceParts & {
    readonly web: NonNullable<RouterDeps["web"]>;
    readonly now?: () => number;
    readonly reconcileEveryMs?: number;
  };
  readonly siteLog: Logger;
  /** The site's last docs sync (a URL site), for its console and /readyz. */
  readonly lastSync: (() => Promise<DocsSyncRecord | undefined>) | undefined;
  /** Whether a Host name is any hosted site's (the operator's token is refused there). */
  readonly servesHost: (name: string) => boolean;
}

/**
 * The site's entry for the edge, how to stop what it started (its reconciler), and `drain`: once
 * the site is removed, its reconciler runs on until nothing is pending (resolves then).
 */
export const siteRoutes = ({
  definition,
  config,
  chain,
  store,
  served,
  parts,
  siteLog,
  lastSync,
  servesHost,
}: SiteRoutesInput): {
  readonly entry: DirectoryEntry;
  readonly stop: () => Promise<void>;
  readonly drain: () => Promise<void>;
} => {
  const basePath = `${SITES_PREFIX}${definition.id}`;
  const router = siteRouter(
    {
      runtime: served.runtime,
      config,
      logger: parts.logger,
      metrics: parts.metrics,
      web: {
        ...parts.web,
        relay: { rpcUrl: parts.relayRpcUrl, wallet: chain.wallet, usdcMint: chain.usdcMint },
      },
      facilitator: parts.facilitator,
      docsSync: lastSync === undefined ? undefined : { last: lastSync },
      signIn: parts.signIn,
      receiptKey: parts.receiptKey,
      ...(parts.now === undefined ? {} : { now: parts.now }),
      limiters: parts.limiters,
    },
    {
      id: definition.id,
      basePath,
      title: definition.title,
      productName: definition.productName,
      ownerTokenSha256: definition.ownerTokenSha256,
      // The console's sessions are signed under the store's secret (shared by its instances).
      sealSession: (message) => Context.get(store.context, RequestSeal).mac("site-console-session", message),
      ownerHost: ownerHosts(definition.hosts, servesHost),
      page: (origin) => siteDemoPage(definition.id, definition.title, origin),
    },
  );
  // Settlements of this site left pending are followed to their end, under its own lease.
  const reconciler =
    parts.facilitator === undefined
      ? undefined
      : startReconciler(
          {
            run: async (effect) => runOutcome(served.runtime, effect),
            feePayer: parts.facilitator.feePayer,
            logger: siteLog,
            metrics: parts.metrics,
          },
          parts.reconcileEveryMs,
        );
  return {
    entry: directoryEntry(definition.id, router, definition.origins, definition.hosts),
    stop: async () => {
      await reconciler?.stop();
    },
    drain: async () => {
      await reconciler?.drain();
    },
  };
};
