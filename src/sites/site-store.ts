/**
 * A hosted site's store: its own namespace (Redis keys under `docs-chat:site:<id>:`, or a memory
 * store of its own), so its free questions, credits, sessions, payer links, payment requests,
 * memos, insights and votes are its own: a memo, session or payment_id of another site names
 * nothing here, and the seal key differs. It is built once and outlives the site's runtime, so
 * reloading the sites file never drops the memory store's credits.
 *
 * What is the service's and not a site's comes from the default site and is shared: the chain
 * reader and the chain lookup budget (one RPC plan: 600 lookups a minute for everyone, not per
 * site, or fifty sites would make it thirty thousand), the settlement locks and the sponsor's
 * losses (one fee payer), and the used-signature ledger a hosted site's claims are marked in
 * first (shared-signature-ledger.ts: a transfer pays one site, once).
 */
import { Context, Layer, ManagedRuntime } from "effect";
import type { AppConfig } from "../../core/config.ts";
import { ChainLookupBudget } from "../../core/ports/chain-lookup-budget.ts";
import { ChainReader } from "../../core/ports/chain-reader.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { SettlementLocks } from "../../core/ports/settlement-locks.ts";
import { SponsorLosses } from "../../core/ports/sponsor-losses.ts";
import type { StoreServices } from "../../core/ports/store-services.ts";
import type { AppRuntime } from "../hono-kit/run-effect.ts";
import type { Logger } from "../observability/log.ts";
import { type AppEvents, storeLayerFor } from "../runtime/app-layer.ts";
import { sharedSignatureLedger } from "./shared-signature-ledger.ts";

/** The services every site takes from the default site's runtime. */
export type SharedServices = ChainLookupBudget | SettlementLocks | SponsorLosses | ChainReader | PaymentStore;

/** The default site's keys stay as they were; a hosted site's are nested under its id. */
export const siteKeyPrefix = (id: string) => `docs-chat:site:${id}:`;

/** The shared services, read once from the default site's runtime. */
export const sharedServicesOf = async (runtime: AppRuntime): Promise<Context.Context<SharedServices>> =>
  Context.pick(
    ChainLookupBudget,
    SettlementLocks,
    SponsorLosses,
    ChainReader,
    PaymentStore,
  )(await runtime.context());

export interface SiteStore {
  /** The site's own store, with the shared services in place of its own. */
  readonly layer: Layer.Layer<StoreServices>;
  /** The service's chain reader (one miss cache, one count of RPC calls). */
  readonly chain: Layer.Layer<ChainReader>;
  /** The free questions a day the store was built with (it reads them when built). */
  readonly freeQueries: number;
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
  const runtime = ManagedRuntime.make(storeLayerFor(config, logger, events, siteKeyPrefix(id)));
  const own = await runtime.context().catch(async (error: unknown) => {
    await runtime.dispose();
    throw error;
  });
  const payments = sharedSignatureLedger(
    id,
    Context.get(own, PaymentStore),
    Context.get(shared, PaymentStore),
  );
  return {
    layer: Layer.succeedContext(
      Context.add(
        Context.merge(own, Context.omit(ChainReader, PaymentStore)(shared)),
        PaymentStore,
        payments,
      ),
    ),
    chain: Layer.succeedContext(Context.pick(ChainReader)(shared)),
    freeQueries: config.freeQueries,
    dispose: () => runtime.dispose(),
  };
};
