/**
 * A hosted site's store: its own namespace (Redis keys under `docs-chat:site:<id>:`, or a memory
 * store of its own), so its free questions, credits, sessions, payer links, payment requests,
 * memos, insights and votes are its own: a memo, session or payment_id of another site names
 * nothing here, and the seal key differs. It is built once and outlives the site's runtime, so
 * reloading the sites file never drops the memory store's credits.
 *
 * What is the service's and not a site's comes from the default site and is shared: the chain
 * reader and the ceiling counter, the chain lookup budget among its counters (one RPC plan: 600 lookups a minute for everyone, not per
 * site, or fifty sites would make it thirty thousand), the settlement locks and the sponsor's
 * losses (one fee payer), and the ledger of used signatures: sites without a wallet of their
 * own receive in the service's, and one transfer must pay once in the whole service (on Redis
 * the site's `sig:` keys are the default prefix's; on memory the default store's map).
 */
import * as Context from "effect/Context";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Option from "effect/Option";
import { UsedSignatures } from "../../adapters/store-memory/index.ts";
import type { AppConfig } from "../../core/config/config.ts";
import { CeilingCounter } from "../../core/ports/ceiling-counter.ts";
import { ChainReader } from "../../core/ports/chain-reader.ts";
import { SettlementLocks } from "../../core/ports/settlement-locks-store.ts";
import { SponsorLosses } from "../../core/ports/sponsor-losses-store.ts";
import type { StoreServices } from "../../core/ports/store-services.ts";
import type { AppRuntime } from "../hono-kit/run-effect.ts";
import type { Logger } from "../observability/log.ts";
import { type AppEvents, storeLayerFor } from "../runtime/app-layer.ts";

/** The services every site takes from the default site's runtime. */
export type SharedServices = CeilingCounter | SettlementLocks | SponsorLosses | ChainReader;

/** The default site's keys stay as they were; a hosted site's are nested under its id. */
export const siteKeyPrefix = (id: string) => `docs-chat:site:${id}:`;

/** The shared services, read once from the default site's runtime (with the memory store's ledger, if it is one). */
export const sharedServicesOf = async (runtime: AppRuntime): Promise<Context.Context<SharedServices>> => {
  const context = await runtime.context();
  const shared = Context.pick(CeilingCounter, SettlementLocks, SponsorLosses, ChainReader)(context);
  // Not among the app's services by type: only a memory store provides it, and only a memory
  // store reads it (Effect.serviceOption), so it rides along untyped.
  const ledger = Context.getOption(context as unknown as Context.Context<UsedSignatures>, UsedSignatures);
  return Option.isSome(ledger) ? Context.add(shared, UsedSignatures, ledger.value) : shared;
};

export interface SiteStore {
  /** The site's own store, with the shared services in place of its own. */
  readonly layer: Layer.Layer<StoreServices>;
  /** The same services, read synchronously (the console signs its sessions with the store's RequestSeal). */
  readonly context: Context.Context<StoreServices>;
  /** The service's chain reader (one miss cache, one count of RPC calls). */
  readonly chain: Layer.Layer<ChainReader>;
  /** The free questions a day the store was built with (it reads them when built). */
  readonly freeQueries: number;
  /**
   * When it was opened (epoch ms): on memory its ledger starts then, and every runtime built over
   * it keeps that start (a runtime of its own would restart the ledger at each edit of the site).
   */
  readonly openedAt: number;
  readonly dispose: () => Promise<void>;
}

/** Opens the store of a site whose settings are `config`; fails as the service's store would (Redis down). */
export const openSiteStore = async (
  id: string,
  config: AppConfig,
  shared: Context.Context<SharedServices>,
  logger: Logger,
  events: AppEvents,
): Promise<SiteStore> => {
  const openedAt = Date.now();
  const runtime = ManagedRuntime.make(
    storeLayerFor(config, logger, events, siteKeyPrefix(id)).pipe(
      Layer.provide(Layer.succeedContext(shared)),
    ),
  );
  const own = await runtime.context().catch(async (error: unknown) => {
    await runtime.dispose();
    throw error;
  });
  const context = Context.merge(own, Context.omit(ChainReader)(shared));
  return {
    layer: Layer.succeedContext(context),
    context,
    chain: Layer.succeedContext(Context.pick(ChainReader)(shared)),
    freeQueries: config.freeQueries,
    openedAt,
    dispose: () => runtime.dispose(),
  };
};
