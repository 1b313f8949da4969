/**
 * What the operator's console shows of each hosted site (GET /api/admin/sites, the "Sites"
 * section of /admin), and `npm run sites` prints. Only the shape lives here: the service that hosts the sites
 * (src/sites/site-summary.ts) fills it in, so the console never imports the sites' code.
 * Money is in USDC base units as decimal strings (exact), with the USDC text beside.
 */
import type { DocsSyncRecord } from "../ports/docs-sync.ts";

/** A site's index: where it is, whether it is built, and what it holds when known. */
export interface SiteIndexState {
  /** The local file's path, or the Chroma collection. */
  readonly where: string;
  /** missing: nothing built yet; built: on disk, not in memory now; loaded/loading: in memory. */
  readonly state: "missing" | "built" | "loading" | "loaded" | "unknown";
  /** Chunks it holds; null when not known without loading it. */
  readonly chunks: number | null;
  /** Pages (files) it holds; null when not known without loading it. */
  readonly files: number | null;
  /** The local file's size; null for Chroma. */
  readonly bytes: number | null;
}

/** Today's figures (UTC day) of one site, as its insights recorded them. */
export interface SiteToday {
  readonly day: string;
  readonly questions: number;
  readonly answered: number;
  readonly declined: number;
  readonly payments: number;
  /** USDC base units, as a decimal string. */
  readonly revenueUnits: string;
  readonly revenueUsdc: string;
}

export interface SiteSummary {
  readonly id: string;
  readonly title: string | null;
  /** The docs URL kept in sync, or the docs folder. */
  readonly docs: string;
  readonly hosts: ReadonlyArray<string>;
  /** The price of a question, in base units (decimal string) and USDC. */
  readonly price: { readonly units: string; readonly usdc: string };
  readonly freeQuestions: number;
  /** The receiving wallet; null when the service has none configured (the local demo chain). */
  readonly wallet: string | null;
  readonly index: SiteIndexState;
  /** The last docs sync; null before the first, or for a folder site. */
  readonly lastSync: DocsSyncRecord | null;
  /** null when it could not be read now. */
  readonly today: SiteToday | null;
}

/** The summary of every hosted site, in the sites file's order. */
export type SitesSummary = () => Promise<ReadonlyArray<SiteSummary>>;
