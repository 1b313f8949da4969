/**
 * The owner-insights part of the configuration. ADMIN_TOKEN switches the console, its API and
 * the recording on (without it nothing is recorded and /admin is a 404); INSIGHTS_SALT keys the
 * visitor hashes; retention, cap and the redaction pattern bound what is kept.
 */
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { MIN_SECRET_LENGTH } from "./config-fields.ts";
import type { Reader } from "./config-reader.ts";
import { compileRedaction, DEFAULT_REDACTION } from "./insights/redaction.ts";
import { DAY_MS } from "./time.ts";

/** What the insights keep unless configured otherwise: 30 days, at most 100 000 events. */
export const DEFAULT_INSIGHTS_BOUNDS = { retentionMs: 30 * DAY_MS, maxEvents: 100_000 } as const;

export { MIN_SECRET_LENGTH };

export interface InsightsConfig {
  /** undefined: no console, no admin API, nothing recorded. */
  readonly adminToken: Redacted.Redacted<string> | undefined;
  /** Key of the daily visitor hashes; undefined: a random one per process. */
  readonly salt: Redacted.Redacted<string> | undefined;
  readonly retentionMs: number;
  readonly maxEvents: number;
  readonly redaction: RegExp;
}

const secret = (read: Reader, name: string) => {
  const value = read.text(name);
  if (value === undefined) return undefined;
  if (value.length >= MIN_SECRET_LENGTH) return Redacted.make(value);
  read.problems.push(`${name}: must be at least ${MIN_SECRET_LENGTH} characters (value hidden)`);
  return undefined;
};

export const parseInsights = (read: Reader): InsightsConfig => {
  const pattern = read.text("INSIGHTS_REDACT_PATTERN");
  const compiled = pattern === undefined ? Result.succeed(DEFAULT_REDACTION) : compileRedaction(pattern);
  if (Result.isFailure(compiled)) read.problems.push(`INSIGHTS_REDACT_PATTERN: ${compiled.failure}`);
  return {
    adminToken: secret(read, "ADMIN_TOKEN"),
    salt: secret(read, "INSIGHTS_SALT"),
    retentionMs:
      read.integer("INSIGHTS_RETENTION_DAYS", DEFAULT_INSIGHTS_BOUNDS.retentionMs / DAY_MS, 1, 3650) * DAY_MS,
    maxEvents: read.integer("INSIGHTS_MAX_EVENTS", DEFAULT_INSIGHTS_BOUNDS.maxEvents, 100, 10_000_000),
    redaction: Result.getOrElse(compiled, () => DEFAULT_REDACTION),
  };
};
