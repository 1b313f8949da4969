/**
 * What the operator's tools show of a site: its settings, its index's state, its last docs
 * sync and today's figures. The console takes the hosted sites' summary (`sitesSummary`) from
 * the running service; `npm run sites` builds the same pieces from the sites file and the store.
 * The index is described without loading it (a file's size, or the index manager's figures when
 * it is in memory), so opening the console never pulls fifty indexes past SITES_MEMORY_MB.
 */
import { existsSync, statSync } from "node:fs";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import type { AppConfig } from "../../core/config/config.ts";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import { formatDay } from "../../core/insights/day-range.ts";
import type { SiteIndexState, SiteSummary, SiteToday } from "../../core/insights/sites-summary.ts";
import { UNITS_PER_USDC } from "../../core/payments/money.ts";
import { utcDay } from "../../core/time.ts";
import { readInsights } from "../../core/use-cases/read-insights.ts";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";
import { describeIndex } from "../runtime/adapter-layers.ts";
import type { HostedSites } from "./hosted-sites.ts";
import type { HeldIndex } from "./site-indexes.ts";

/** Base units as USDC text: 2500n -> "0.0025", 1000000n -> "1". */
export const usdcText = (units: bigint): string => {
  const fraction = (units % UNITS_PER_USDC).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction === "" ? `${units / UNITS_PER_USDC}` : `${units / UNITS_PER_USDC}.${fraction}`;
};

/** Where the site's docs come from, as the operator wrote them (a folder made absolute). */
export const docsOf = (site: SiteDefinition): string =>
  site.docs.kind === "url" ? site.docs.url : site.docs.path;

/** The index's state without loading it: in memory (the manager's figures), on disk, or missing. */
export const indexStateOf = (config: AppConfig, held: HeldIndex | undefined): SiteIndexState => {
  const where = describeIndex(config.vector);
  const local = config.vector.kind === "local" ? config.vector.indexPath : undefined;
  const bytes = local !== undefined && existsSync(local) ? statSync(local).size : null;
  if (held !== undefined) return { where, state: held.state, chunks: held.chunks, files: null, bytes };
  if (local === undefined) return { where, state: "unknown", chunks: null, files: null, bytes: null };
  return { where, state: bytes === null ? "missing" : "built", chunks: null, files: null, bytes };
};

/** Today's figures (UTC day, by the runtime's clock) from the site's insights store. */
export const todayFigures = Effect.gen(function* () {
  const day = utcDay(yield* Clock.currentTimeMillis);
  const report = yield* readInsights({ fromDay: day, toDay: day });
  return {
    day: formatDay(day),
    questions: report.totals.questions,
    answered: report.totals.answered,
    declined: report.totals.declined,
    payments: report.revenue.payments,
    revenueUnits: String(report.revenue.units),
    revenueUsdc: report.revenue.usdc,
  } satisfies SiteToday;
});

/** Today's figures of a site's runtime; null when its store cannot be read now. */
export const todayOf = async (runtime: AppRuntime): Promise<SiteToday | null> => {
  const outcome = await runOutcome(runtime, todayFigures);
  return outcome.ok ? outcome.value : null;
};

/** The settings part of a summary. */
export const settingsOf = (site: SiteDefinition, serviceWallet: string | undefined) => ({
  id: site.id,
  title: site.title ?? null,
  docs: docsOf(site),
  hosts: site.hosts,
  price: { units: site.unitsPerQuery.toString(), usdc: usdcText(site.unitsPerQuery) },
  freeQuestions: site.freeQueries,
  wallet: site.wallet ?? serviceWallet ?? null,
});

/** The summary of every hosted site, read from the running service. */
export const sitesSummary =
  (sites: Pick<HostedSites, "list" | "indexes" | "lastSync">, serviceWallet: string | undefined) =>
  async (): Promise<ReadonlyArray<SiteSummary>> => {
    const held = new Map(sites.indexes().map((index) => [index.site, index]));
    return Promise.all(
      sites.list().map(async ({ definition, served }) => ({
        ...settingsOf(definition, serviceWallet),
        index: indexStateOf(served.config, held.get(definition.id)),
        lastSync:
          served.config.docsSite.url === undefined
            ? null
            : ((await sites.lastSync(definition.id).catch(() => undefined)) ?? null),
        today: await todayOf(served.runtime),
      })),
    );
  };
