/**
 * The owner-insights part of the configuration. ADMIN_TOKEN switches the console, its API and
 * the recording on (without it nothing is recorded and /admin is a 404); INSIGHTS_SALT keys the
 * visitor hashes; retention and the redaction pattern bound what is kept (the cap on events is
 * a ceiling, insights-events).
 */
import type * as Redacted from "effect/Redacted";
import { compileRedaction, DEFAULT_REDACTION } from "../insights/redaction.ts";
import { DAY_MS } from "../time.ts";
import { type Decoded, envInteger, rule, Secret } from "./config-fields.ts";

/** What the insights keep unless configured otherwise: 30 days, at most 100 000 events. */
export const DEFAULT_INSIGHTS_BOUNDS = { retentionMs: 30 * DAY_MS, maxEvents: 100_000 } as const;

export interface InsightsConfig {
  /** undefined: no console, no admin API, nothing recorded. */
  readonly adminToken: Redacted.Redacted<string> | undefined;
  /** Key of the daily visitor hashes; undefined: a random one per process. */
  readonly salt: Redacted.Redacted<string> | undefined;
  readonly retentionMs: number;
  readonly redaction: RegExp;
}

/** The insights' variables, as fields of the service's settings (core/config/config-service.ts). */
export const INSIGHTS_FIELDS = {
  ADMIN_TOKEN: Secret,
  INSIGHTS_SALT: Secret,
  INSIGHTS_RETENTION_DAYS: envInteger(1, 3650),
  INSIGHTS_REDACT_PATTERN: rule((input) => compileRedaction(String(input))),
};

type InsightsSettings = Decoded<typeof INSIGHTS_FIELDS>;

export const insightsOf = (s: InsightsSettings): InsightsConfig => ({
  adminToken: s.ADMIN_TOKEN,
  salt: s.INSIGHTS_SALT,
  retentionMs: (s.INSIGHTS_RETENTION_DAYS ?? DEFAULT_INSIGHTS_BOUNDS.retentionMs / DAY_MS) * DAY_MS,
  redaction: s.INSIGHTS_REDACT_PATTERN ?? DEFAULT_REDACTION,
});
