/**
 * What the service starts, each part a scoped layer: the chain (a local demo chain when the
 * program brings one), the x402 facilitator (its fee payer's watch), the root site's runtime
 * (its store, index and models), its docs sync, its reconciler, and the hosted sites (their
 * runtimes, syncs, reconcilers and the sites file's watch). A part's release is registered the
 * moment it has started, so a start that fails half way releases what it opened, in reverse
 * order, and stopping the service is closing one scope.
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Redacted from "effect/Redacted";
import * as Scope from "effect/Scope";
import type { AppConfig, Env } from "../../core/config/config.ts";
import type { SitesSet } from "../../core/config/config-site.ts";
import { TransferAttribution } from "../../core/ports/transfer-attribution.ts";
import type { DocsSyncWatch, ServiceDocsSync } from "../docs-sync/docs-sync-loop.ts";
import type { AppRuntime } from "../hono-kit/run-effect.ts";
import { runOutcome } from "../hono-kit/run-effect.ts";
import type { ServiceLimiters } from "../http/service-limiters.ts";
import type { ServiceLogger } from "../observability/log.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { ReceiptKey } from "../payments/offer-receipt/receipt-key.ts";
import type { ExactFacilitator } from "../payments/v2/exact-payment.ts";
import { startFacilitator } from "../payments/v2/facilitator.ts";
import { startReconciler } from "../payments/v2/reconciler.ts";
import type { SignInSettings } from "../sign-in/wallet-sign-in.ts";
import { defaultSiteAttribution, type SiteAttribution, siteAttribution } from "../sites/site-attribution.ts";
import { type SiteFreeQuestions, siteFreeQuestions } from "../sites/site-free-questions.ts";
import type { StartedSites } from "../sites/start-sites.ts";
import { type AppEvents, appLayer } from "./app-layer.ts";
import { type LocalChainStarter, type ResolvedChain, resolveChain } from "./resolve-chain.ts";

class Chain extends Context.Service<Chain, ResolvedChain>()("runtime/Chain") {}
class Facilitator extends Context.Service<Facilitator, ExactFacilitator | undefined>()(
  "runtime/Facilitator",
) {}
class RootRuntime extends Context.Service<RootRuntime, AppRuntime>()("runtime/RootRuntime") {}
class DocsSync extends Context.Service<
  DocsSync,
  { readonly loop: ServiceDocsSync | undefined; readonly root: DocsSyncWatch | undefined }
>()("runtime/DocsSync") {}
class Sites extends Context.Service<Sites, StartedSites | undefined>()("runtime/Sites") {}

export interface ServiceSetup {
  readonly config: AppConfig;
  readonly env: Env;
  readonly logger: ServiceLogger;
  readonly metrics: Metrics;
  readonly events: AppEvents;
  readonly localChain?: LocalChainStarter | undefined;
  /** The sites file as read and validated before anything started. */
  readonly sitesAtStart?: SitesSet | undefined;
  readonly signIn: (
    chain: ResolvedChain,
    facilitator: ExactFacilitator | undefined,
  ) => SignInSettings | undefined;
  readonly receiptKey: (chain: ResolvedChain) => ReceiptKey | undefined;
  readonly limiters: ServiceLimiters;
}

/** A part started by `start` and stopped by `stop`; its start's error is kept as it is (boot names it). */
const part = <A>(start: () => Promise<A>, stop: (started: A) => Promise<void> | void) =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: start, catch: (error) => error }),
    // A release that fails stops nothing else: the others still run, and the start's own error
    // (or the stop's exit) is what the caller sees.
    (started) =>
      Effect.tryPromise({ try: async () => stop(started), catch: (error) => error }).pipe(Effect.ignore),
  );

const chainLayer = (setup: ServiceSetup) =>
  Layer.effect(Chain)(
    part(
      () => resolveChain(setup.config, setup.logger, setup.localChain),
      (chain) => chain.stop(),
    ),
  );

const facilitatorLayer = ({ config, logger, metrics }: ServiceSetup) =>
  Layer.effect(Facilitator)(
    Effect.flatMap(Chain, ({ chain, feePayer }) =>
      part(
        () => {
          const secret = config.x402.feePayerSecretKey;
          return startFacilitator({
            rpcUrl: chain.rpcUrl,
            feePayer: secret === undefined ? feePayer : Redacted.value(secret),
            logger,
            policy: { maxFeeLamports: BigInt(config.x402.maxSponsorFeeLamports), mints: [chain.usdcMint] },
            minBalanceLamports: BigInt(config.x402.minSponsorBalanceLamports),
            paymentIdRequired: config.x402.paymentIdRequired,
            lossBudgetLamportsPerHour: config.ceilings["sponsor-losses"],
            metrics,
          });
        },
        (facilitator) => facilitator?.sponsor.stop(),
      ),
    ),
  );

/**
 * The root site's runtime, built now: a bad REDIS_URL fails the start, not the first request.
 * Its transfers are attributed among every site (the hosted ones join as they open).
 */
const rootRuntimeLayer = (
  { config, logger, events }: ServiceSetup,
  transfers: SiteAttribution,
  freeQuestions: SiteFreeQuestions,
) =>
  Layer.effect(RootRuntime)(
    Effect.flatMap(Chain, ({ chain }) =>
      part(
        async () => {
          const attribution = Layer.succeed(TransferAttribution)(transfers.service);
          const parts = { attribution, sitesFree: freeQuestions };
          const layer = appLayer(config, chain, logger, parts, events);
          const runtime = ManagedRuntime.make(layer.pipe(Layer.orDie));
          const context = await runtime.context().catch(async (error: unknown) => {
            await runtime.dispose();
            throw error;
          });
          transfers.root(defaultSiteAttribution(context));
          return runtime;
        },
        (runtime) => runtime.dispose(),
      ),
    ),
  );

/**
 * The service's one docs sync loop, the default site's DOCS_URL in it; the sites file's URL
 * sites join it when they open. The crawler and the ingest (parsers, robots-parser) are loaded
 * only when a site may be synced (DOCS_URL or a sites file).
 */
const docsSyncLayer = ({ config, logger }: ServiceSetup) =>
  Layer.effect(DocsSync)(
    part(
      async () => {
        if (config.docsSite.url === undefined && config.sitesFile === undefined)
          return { loop: undefined, root: undefined };
        const { followDefaultSite, serviceDocsSync } = await import("../docs-sync/docs-sync-loop.ts");
        const loop = serviceDocsSync(logger);
        return { loop, root: followDefaultSite(loop, config) };
      },
      (sync) => sync.loop?.stop(),
    ),
  );

/** Sponsored settlements left pending are followed to their end (one instance at a time). */
const reconcilerLayer = ({ logger, metrics }: ServiceSetup) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const runtime = yield* RootRuntime;
      const facilitator = yield* Facilitator;
      if (facilitator === undefined) return;
      yield* part(
        async () =>
          startReconciler({
            run: async (effect) => runOutcome(runtime, effect),
            feePayer: facilitator.feePayer,
            logger,
            metrics,
          }),
        (reconciler) => reconciler.stop(),
      );
    }),
  );

/** The sites of SITES_FILE beside the root one (loaded only when the file is set). */
const sitesLayer = (setup: ServiceSetup, transfers: SiteAttribution, freeQuestions: SiteFreeQuestions) =>
  Layer.effect(Sites)(
    Effect.gen(function* () {
      const { config } = setup;
      const path = config.sitesFile;
      if (path === undefined) return undefined;
      const resolved = yield* Chain;
      const runtime = yield* RootRuntime;
      const facilitator = yield* Facilitator;
      const { loop } = yield* DocsSync;
      if (loop === undefined) return yield* Effect.die(new Error("a sites file without the docs sync"));
      const { chain, fundDemoWallet } = resolved;
      return yield* part(
        async () =>
          (await import("../sites/start-sites.ts")).startSites({
            path,
            initial: setup.sitesAtStart,
            env: setup.env,
            runtime,
            base: config,
            chain,
            logger: setup.logger,
            metrics: setup.metrics,
            events: setup.events,
            facilitator,
            signIn: setup.signIn(resolved, facilitator),
            receiptKey: setup.receiptKey(resolved),
            relayRpcUrl: chain.rpcUrl,
            limiters: setup.limiters,
            transfers,
            freeQuestions,
            docsSync: loop,
            web: { fundDemoWallet },
          }),
        (sites) => sites.stop(),
      );
    }),
  );

/** Every part, each over the parts it needs: released in the reverse order of their starts. */
const serviceLayer = (
  setup: ServiceSetup,
  transfers = siteAttribution(),
  // Every site reads the one largest free questions, the root site's runtime as the hosted ones.
  freeQuestions = siteFreeQuestions(setup.config.freeQueries),
) =>
  Layer.mergeAll(reconcilerLayer(setup), sitesLayer(setup, transfers, freeQuestions)).pipe(
    Layer.provideMerge(docsSyncLayer(setup)),
    Layer.provideMerge(rootRuntimeLayer(setup, transfers, freeQuestions)),
    Layer.provideMerge(facilitatorLayer(setup)),
    Layer.provideMerge(chainLayer(setup)),
  );

export interface StartedService {
  readonly chain: ResolvedChain;
  readonly facilitator: ExactFacilitator | undefined;
  readonly runtime: AppRuntime;
  readonly docsSync: DocsSyncWatch | undefined;
  readonly sites: StartedSites | undefined;
  /** Stops every part, the last started first. */
  readonly stop: () => Promise<void>;
}

/** Starts every part; a failure releases what had started, then rejects with the failing part's error. */
export const startService = async (setup: ServiceSetup): Promise<StartedService> => {
  const scope = Effect.runSync(Scope.make());
  const built = await Effect.runPromiseExit(Layer.buildWithScope(serviceLayer(setup), scope));
  if (Exit.isFailure(built)) {
    await Effect.runPromise(Scope.close(scope, built));
    const failure = built.cause.reasons.find((reason) => reason._tag === "Fail");
    throw failure === undefined ? new Error(String(built.cause)) : failure.error;
  }
  const context = built.value;
  return {
    chain: Context.get(context, Chain),
    facilitator: Context.get(context, Facilitator),
    runtime: Context.get(context, RootRuntime),
    docsSync: Context.get(context, DocsSync).root,
    sites: Context.get(context, Sites),
    stop: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  };
};
