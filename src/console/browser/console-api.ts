/** The console's calls: the report of a range and, on the operator's console, the sites (same origin only). */
import type { InsightsReport } from "../../../core/insights/report.ts";
import type { SiteSummary } from "../../../core/insights/sites-summary.ts";
import type { UnattributedPaymentView } from "../../../core/insights/unattributed-view.ts";
import type { DocsSyncRecord } from "../../../core/ports/docs-sync.ts";
import { consoleBase } from "./base.ts";

/** The report, its unattributed payments, and the last sync of DOCS_URL (null when no site is synced). */
export type Report = InsightsReport & {
  readonly unattributed: ReadonlyArray<UnattributedPaymentView>;
  readonly docsSync: DocsSyncRecord | null;
};

export type Loaded =
  | { readonly ok: true; readonly report: Report }
  | { readonly ok: false; readonly status: number; readonly error: string };

export const rangeQuery = (from: string, to: string) => new URLSearchParams({ from, to }).toString();

export const loadReport = async (from: string, to: string): Promise<Loaded> => {
  const response = await fetch(`${consoleBase()}/api/admin/insights?${rangeQuery(from, to)}`, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  const body = (await response.json().catch(() => ({}))) as Partial<Report> & {
    details?: string;
    error?: string;
  };
  if (response.ok) return { ok: true, report: body as Report };
  return {
    ok: false,
    status: response.status,
    error: body.details ?? body.error ?? `HTTP ${response.status}`,
  };
};

/** The hosted sites' summary; undefined when this console has none (one site, or a site's own console). */
export const loadSites = async (): Promise<ReadonlyArray<SiteSummary> | undefined> => {
  const response = await fetch(`${consoleBase()}/api/admin/sites`, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  }).catch(() => undefined);
  if (response === undefined || !response.ok) return undefined;
  const body = (await response.json().catch(() => ({}))) as { sites?: ReadonlyArray<SiteSummary> };
  return body.sites;
};
