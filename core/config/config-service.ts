/**
 * The service's settings as one Schema, keyed by the environment variables it reads, each with
 * its rule (core/config/config-fields.ts and each concern's file). The environment is decoded in one
 * pass with every problem collected (`<VARIABLE>: <rule> (got ...)`, "value hidden" for a
 * secret); secrets decode to `Redacted`. The ceilings' variables come from their table
 * (core/ceilings/read-ceilings.ts), the default site's from the site's rules
 * (core/config/config-site-default.ts). What spans variables (a mode that needs another variable) is
 * judged after, in core/config/config.ts.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { CEILING_FIELDS } from "../ceilings/read-ceilings.ts";
import { parseTrustProxy } from "../trust-proxy.ts";
import { CHAIN_FIELDS } from "./config-chain.ts";
import { DOCS_SITE_FIELDS } from "./config-docs-site.ts";
import { type Env, envInteger, Flag, field, Opaque, problemsOf, rule, Text, Url } from "./config-fields.ts";
import { INSIGHTS_FIELDS } from "./config-insights.ts";
import { REDIS_FIELDS } from "./config-redis.ts";
import { DEFAULT_SITE_FIELDS } from "./config-site-default.ts";
import { hostName, SURFACE_FIELDS } from "./config-surface.ts";
import { X402_FIELDS } from "./config-x402.ts";
import { X402_AGENTS_FIELDS } from "./config-x402-agents.ts";

export type { Env };

/** Every variable and its rule; the order is the order problems are named in. */
const FIELDS = {
  HOST: field("must be an IP address or a host name, e.g. 0.0.0.0 or 127.0.0.1", (input) =>
    typeof input === "string" && hostName(input) !== undefined ? input : undefined,
  ),
  PORT: envInteger(0, 65535),
  TRUST_PROXY: rule((input) => {
    const trust = parseTrustProxy(String(input));
    return typeof trust === "string" ? Result.fail(trust) : Result.succeed(trust);
  }),
  ...DEFAULT_SITE_FIELDS,
  ...REDIS_FIELDS,
  ...CHAIN_FIELDS,
  PAYMENT_MEMO_REQUIRED: Flag,
  LLM_API_KEY: Opaque,
  LLM_MODEL: Text,
  LLM_BASE_URL: Url(),
  CHROMA_URL: Url(),
  VECTOR_API_KEY: Opaque,
  VECTOR_INDEX_NAME: Text,
  INDEX_PATH: Text,
  EMBEDDING_MODEL: Text,
  ...INSIGHTS_FIELDS,
  ...X402_FIELDS,
  ...X402_AGENTS_FIELDS,
  ...SURFACE_FIELDS,
  ...DOCS_SITE_FIELDS,
  SITES_FILE: Text,
};

const optional = (fields: Record<string, Schema.Top>) =>
  Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, Schema.optionalKey(schema)]));

/** The service's settings; the ceilings' variables are among them, typed by the table's names. */
export const ServiceSettings = Schema.Struct({
  ...optional(FIELDS),
  ...CEILING_FIELDS,
}) as unknown as Schema.Struct<{
  readonly [K in keyof typeof FIELDS]: Schema.optionalKey<(typeof FIELDS)[K]>;
}>;

export type Settings = typeof ServiceSettings.Type & Readonly<Record<string, unknown>>;

/**
 * The environment's text (trimmed; blank is unset), the settings decoded from it and every
 * problem. A variable with a problem is left out of the settings, so the rest keep their values
 * and the rules across variables can still be judged (and named) beside it.
 */
export const decodeSettings = (env: Env) => {
  const raw: Record<string, string> = {};
  for (const name of [...Object.keys(FIELDS), ...Object.keys(CEILING_FIELDS)]) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== "") raw[name] = value;
  }
  const decode = Schema.decodeUnknownResult(ServiceSettings);
  const decoded = decode(raw, { errors: "all" });
  if (Result.isSuccess(decoded))
    return { text: (name: string) => raw[name], settings: decoded.success as Settings, problems: [] };
  const bad = new Set<string>();
  const problems = problemsOf(decoded.failure.issue, ([name]) => {
    bad.add(String(name));
    return String(name);
  });
  const valid = Object.fromEntries(Object.entries(raw).filter(([name]) => !bad.has(name)));
  const settings = Result.getOrElse(decode(valid), () => ({})) as Settings;
  return { text: (name: string): string | undefined => raw[name], settings, problems: [...problems] };
};
