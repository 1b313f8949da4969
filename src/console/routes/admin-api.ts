/**
 * GET /api/admin/insights and /api/admin/export, behind the admin gate. Both read this
 * instance's pending recordings first, so a report right after a session shows all of it.
 * The operator's console (ADMIN_TOKEN) of a service hosting sites adds GET /api/admin/sites:
 * each hosted site's summary; a site's own console has no such route.
 */
import * as Clock from "effect/Clock";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { type Context, Hono } from "hono";
import { dayRange, formatDay } from "../../../core/insights/day-range.ts";
import type { SitesSummary } from "../../../core/insights/sites-summary.ts";
import type { DocsSyncRecord } from "../../../core/ports/docs-sync.ts";
import { exportInsights, readInsights } from "../../../core/use-cases/read-insights.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import type { InsightsRecorder } from "../../hono-kit/insights-recorder.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import { unavailableResponse } from "../../http/error-response.ts";
import { ExportQuery, InsightsQuery } from "../../http/schemas/admin.ts";
import {
  ADMIN_HEADERS,
  type AdminAccess,
  admit,
  ELSEWHERE_TEXT,
  requestCredentials,
  retryAfterSeconds,
} from "./admin-gate.ts";
import { exportCsv } from "./export-rows.ts";

export interface AdminApiDeps {
  readonly runtime: AppRuntime;
  readonly recorder: InsightsRecorder;
  readonly access: AdminAccess;
  readonly docsSync?: { readonly last: () => Promise<DocsSyncRecord | undefined> } | undefined;
  /** The hosted sites' summary (the operator's console only); absent: no /sites route. */
  readonly sitesSummary?: SitesSummary | undefined;
}

const invalid = (c: Context<AppEnv>, details: string) =>
  c.json({ success: false, error: "Invalid insights request", details, code: "INVALID_REQUEST" }, 400);

/** The query decoded with `schema`, its day range resolved at the runtime's time. */
const readQuery = async <S extends typeof InsightsQuery | typeof ExportQuery>(
  c: Context<AppEnv>,
  runtime: AppRuntime,
  schema: S,
) => {
  const decoded = Schema.decodeUnknownResult(schema)(c.req.query());
  if (Result.isFailure(decoded)) return { ok: false as const, response: invalid(c, decoded.failure.message) };
  // The runtime's clock, so "today" agrees with the time events are recorded at (it cannot fail).
  const now = await runOutcome(runtime, Clock.currentTimeMillis);
  const range = dayRange(decoded.success, now.ok ? now.value : now.error);
  if (Result.isFailure(range)) return { ok: false as const, response: invalid(c, range.failure) };
  return { ok: true as const, query: decoded.success as S["Type"], range: range.success };
};

/** The last docs sync's record, or null when none ran or it cannot be read now (the report still shows). */
const lastSyncOf = async (docsSync: AdminApiDeps["docsSync"]): Promise<DocsSyncRecord | null> =>
  docsSync === undefined ? null : ((await docsSync.last().catch(() => undefined)) ?? null);

export const adminApiRoutes = ({ runtime, recorder, access, docsSync, sitesSummary }: AdminApiDeps) => {
  const routes = new Hono<AppEnv>()

    .use(async (c, next) => {
      for (const [name, value] of Object.entries(ADMIN_HEADERS)) c.header(name, value);
      const refusal = admit(c, access, requestCredentials(c, access));
      if (refusal === undefined) return next();
      if (refusal.kind === "locked")
        return c.json(
          {
            success: false,
            error: "Too many wrong admin tokens: try again later",
            code: "TOO_MANY_ATTEMPTS",
          },
          429,
          { "Retry-After": retryAfterSeconds(refusal.retryAfterMs) },
        );
      if (refusal.kind === "elsewhere")
        return c.json({ success: false, error: ELSEWHERE_TEXT, code: "ADMIN_TOKEN_NOT_HERE" }, 403);
      const error =
        refusal.kind === "wrong"
          ? "Wrong admin token"
          : "Admin token required: send Authorization: Bearer <ADMIN_TOKEN>, or log in at /admin";
      return c.json({ success: false, error, code: "UNAUTHORIZED" }, 401, {
        "WWW-Authenticate": 'Bearer realm="admin"',
      });
    })
    .get("/insights", async (c) => {
      const request = await readQuery(c, runtime, InsightsQuery);
      if (!request.ok) return request.response;
      await recorder.settled();
      const outcome = await runOutcome(runtime, readInsights(request.range));
      if (!outcome.ok) return unavailableResponse(c, outcome.error);
      return c.json({ success: true, ...outcome.value, docsSync: await lastSyncOf(docsSync) });
    })
    .get("/export", async (c) => {
      const request = await readQuery(c, runtime, ExportQuery);
      if (!request.ok) return request.response;
      await recorder.settled();
      const { range, query } = request;
      const outcome = await runOutcome(runtime, exportInsights(range));
      if (!outcome.ok) return unavailableResponse(c, outcome.error);
      const [from, to] = [formatDay(range.fromDay), formatDay(range.toDay)];
      const format = query.format ?? "csv";
      c.header("Content-Disposition", `attachment; filename="insights-${from}-${to}.${format}"`);
      const { events, unattributed } = outcome.value;
      if (format === "json") return c.json({ success: true, from, to, events, unattributed });
      return c.body(exportCsv(events, unattributed), 200, { "Content-Type": "text/csv; charset=utf-8" });
    });
  if (sitesSummary !== undefined)
    routes.get("/sites", async (c) => {
      // A site's own recordings are settled by its own console; these are its store's figures.
      const sites = await sitesSummary();
      return c.json({ success: true, sites });
    });
  return routes;
};
