/**
 * The sites file (SITES_FILE): more docs sites served by the same service, each with its docs
 * (a folder's with the URL its pages are published under, so its sources link), widget origins,
 * host names, price, free questions, wallet, owner token, MCP tool prices and answer settings.
 * Validated in one pass like the environment: one ConfigError names every
 * problem (`SITES_FILE: sites[2].id: ...`), an unknown key included, since a misspelt setting
 * must not silently leave its default in place. Secret values (the owner's token and its hash)
 * never appear in a problem. The single-site setup is the default site and is not listed here.
 */

import * as Result from "effect/Result";
import { ConfigError } from "./config.ts";
import type { McpToolPrices } from "./config-mcp.ts";
import type { Env } from "./config-reader.ts";
import * as field from "./config-site-fields.ts";
import { hostName } from "./host-name.ts";
import { DEFAULT_SITE } from "./payments/payment-settings.ts";
import { DEFAULT_UNITS_PER_QUERY } from "./payments/question-price.ts";

export const SITE_ID = /^[a-z0-9-]{1,40}$/;

export interface SiteDefinition {
  readonly id: string;
  readonly docs:
    | { readonly kind: "url"; readonly url: string }
    | {
        readonly kind: "folder";
        readonly path: string;
        /** Where the folder's pages are published (`baseUrl`); without it sources carry no link. */
        readonly baseUrl?: string | undefined;
      };
  /** The widget's allowed origins (normalized like ALLOWED_ORIGINS). */
  readonly origins: ReadonlyArray<string>;
  /** Lower-case host names (with :port if given) the site is served on at the usual paths. */
  readonly hosts: ReadonlyArray<string>;
  readonly title: string | undefined;
  /** Price of one question in USDC base units (default 1000n = 0.001 USDC). */
  readonly unitsPerQuery: bigint;
  /** Free questions a day (default: the service's RATE_LIMIT_FREE_QUERIES). */
  readonly freeQueries: number;
  /** Receiving wallet (base58); undefined: the service's. */
  readonly wallet: string | undefined;
  /** Hex SHA-256 of the owner's console token. */
  readonly ownerTokenSha256: string | undefined;
  /** Default: the service's. */
  readonly mcpToolPrices: McpToolPrices;
  /** false: extractive answers only for this site. */
  readonly llm: boolean;
  /** The product named in the LLM prompt and listings. */
  readonly productName: string | undefined;
  /** The docs' language (ISO 639-1); undefined: detected from the docs when they are indexed. */
  readonly language?: string | undefined;
}

export interface SitesSet {
  readonly sites: ReadonlyArray<SiteDefinition>;
}

/** What a site takes from the service when the file leaves it out, and how a token is hashed. */
export interface SiteDefaults {
  readonly freeQueries: number;
  /** The service's price of a question (PRICE_PER_QUESTION); default 0.001 USDC. */
  readonly unitsPerQuery?: bigint | undefined;
  readonly mcpToolPrices: McpToolPrices;
  /**
   * The service's own host names (PUBLIC_ORIGIN's, ALLOWED_HOSTS, the loopback names), lower
   * case without port: a site listing one would take the default site's routes (its console,
   * probes and facilitator) on that name.
   */
  readonly reservedHosts?: ReadonlyArray<string> | undefined;
  /** Hex SHA-256 of a token (handed in by the program, so core stays free of crypto). */
  readonly hashToken: (token: string) => string;
}

const SITE_KEYS = [
  "id",
  "docs",
  "baseUrl",
  "origins",
  "hosts",
  "title",
  "price",
  "questionsPerUsdc",
  "freeQuestions",
  "wallet",
  "ownerTokenSha256",
  "ownerTokenEnv",
  "mcpToolPrices",
  "llm",
  "productName",
  "language",
] as const;

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One site's definition, or undefined after recording its problems through `problem`. */
const parseSite = (
  raw: Readonly<Record<string, unknown>>,
  env: Env,
  defaults: SiteDefaults,
  problem: (key: string, text: string) => void,
): SiteDefinition | undefined => {
  let bad = false;
  const take = <A>(key: string, result: Result.Result<A, string | ReadonlyArray<string>>): A | undefined => {
    if (Result.isSuccess(result)) return result.success;
    bad = true;
    for (const text of typeof result.failure === "string" ? [result.failure] : result.failure)
      problem(key, text);
    return undefined;
  };
  const optional = <A>(
    key: string,
    check: (value: unknown) => Result.Result<A, string | ReadonlyArray<string>>,
  ) => (raw[key] === undefined ? undefined : take(key, check(raw[key])));
  const required = <A>(
    key: string,
    check: (value: unknown) => Result.Result<A, string | ReadonlyArray<string>>,
  ) => {
    if (raw[key] !== undefined) return take(key, check(raw[key]));
    bad = true;
    problem(key, "required");
    return undefined;
  };
  const both = (a: string, b: string) => {
    if (raw[a] === undefined || raw[b] === undefined) return;
    bad = true;
    problem(a, `give ${a} or ${b}, not both`);
  };

  for (const key of Object.keys(raw))
    if (!(SITE_KEYS as ReadonlyArray<string>).includes(key)) {
      bad = true;
      problem(key, `unknown key (known: ${SITE_KEYS.join(", ")})`);
    }
  both("price", "questionsPerUsdc");
  both("ownerTokenSha256", "ownerTokenEnv");
  const id = required("id", (value) =>
    value === DEFAULT_SITE
      ? Result.fail(`"${DEFAULT_SITE}" is the site the environment's settings make; choose another id`)
      : typeof value === "string" && SITE_ID.test(value)
        ? Result.succeed(value)
        : Result.fail(`must be 1 to 40 of a-z, 0-9 and - (got ${field.shown(value)})`),
  );
  const docs = required("docs", field.docs);
  const baseUrl = optional("baseUrl", field.baseUrl);
  if (baseUrl !== undefined && docs?.kind === "url") {
    bad = true;
    problem("baseUrl", "only for a folder site: a URL site's sources already link to its pages");
  }
  const site = {
    id,
    docs: docs?.kind === "folder" && baseUrl !== undefined ? { ...docs, baseUrl } : docs,
    origins: optional("origins", field.origins) ?? [],
    hosts: optional("hosts", field.hosts) ?? [],
    title: optional("title", (value) => field.label(value, 120)),
    unitsPerQuery: optional("price", field.price) ?? optional("questionsPerUsdc", field.questionsPerUsdc),
    freeQueries: optional("freeQuestions", (value) => field.wholeNumber(value, 0, 1_000_000)),
    wallet: optional("wallet", field.wallet),
    ownerTokenSha256:
      optional("ownerTokenSha256", field.ownerTokenSha256) ??
      optional("ownerTokenEnv", (value) => field.ownerTokenEnv(value, env, defaults.hashToken)),
    mcpToolPrices: optional("mcpToolPrices", (value) => field.mcpToolPrices(value, defaults.mcpToolPrices)),
    llm: optional("llm", field.flag),
    productName: optional("productName", (value) => field.label(value, 80)),
    language: optional("language", field.language),
  };
  if (bad || site.id === undefined || site.docs === undefined) return undefined;
  return {
    ...site,
    id: site.id,
    docs: site.docs,
    unitsPerQuery: site.unitsPerQuery ?? defaults.unitsPerQuery ?? DEFAULT_UNITS_PER_QUERY,
    freeQueries: site.freeQueries ?? defaults.freeQueries,
    mcpToolPrices: site.mcpToolPrices ?? defaults.mcpToolPrices,
    llm: site.llm ?? true,
  };
};

/** A site's place in the file, its id when that is valid, and its definition when the whole site is. */
interface Placed {
  readonly at: number;
  readonly id: string | undefined;
  readonly site: SiteDefinition | undefined;
}

/**
 * Records a problem for each id or host that more than one site claims, and for each host that
 * is the service's own. Ids are compared even for a site with other problems, so a file with a
 * bad price and a repeated id names both at once, instead of the repeat only after the price is
 * fixed.
 */
const checkUnique = (placed: ReadonlyArray<Placed>, problems: string[], reserved: ReadonlyArray<string>) => {
  const ids = new Map<string, number>();
  const hosts = new Map<string, string>();
  for (const { at, id, site } of placed) {
    if (id !== undefined) {
      const first = ids.get(id);
      if (first === undefined) ids.set(id, at);
      else problems.push(`SITES_FILE: sites[${at}].id: "${id}" is also the id of sites[${first}]`);
    }
    for (const host of site?.hosts ?? []) {
      if (reserved.includes(hostName(host))) {
        problems.push(
          `SITES_FILE: sites[${at}].hosts: "${host}" is the service's own host name (PUBLIC_ORIGIN, ALLOWED_HOSTS or a loopback name); serve the site under /sites/${site?.id ?? "<id>"}/ there instead`,
        );
        continue;
      }
      // A name is one site's whatever the port (the edge routes by the name).
      const owner = hosts.get(hostName(host));
      if (owner === undefined) hosts.set(hostName(host), site?.id ?? "");
      else if (owner !== site?.id)
        problems.push(`SITES_FILE: sites[${at}].hosts: "${host}" is also a host of site "${owner}"`);
    }
  }
};

/** Validates the sites file's content (already read from JSON or YAML) into the set of sites. */
export const parseSites = (
  raw: unknown,
  env: Env,
  defaults: SiteDefaults,
): Result.Result<SitesSet, ConfigError> => {
  const problems: string[] = [];
  if (!isRecord(raw) || !Array.isArray(raw.sites))
    return Result.fail(
      new ConfigError({ problems: ['SITES_FILE: must hold {"sites": [...]}, a list of sites'] }),
    );
  for (const key of Object.keys(raw))
    if (key !== "sites") problems.push(`SITES_FILE: ${key}: unknown key (known: sites)`);
  const placed: Placed[] = [];
  raw.sites.forEach((entry: unknown, i: number) => {
    if (!isRecord(entry)) {
      problems.push(
        `SITES_FILE: sites[${i}]: must be an object with an id and docs (got ${field.shown(entry)})`,
      );
      return;
    }
    const site = parseSite(entry, env, defaults, (key, text) =>
      problems.push(`SITES_FILE: sites[${i}].${key}: ${text}`),
    );
    const id = typeof entry.id === "string" && SITE_ID.test(entry.id) ? entry.id : undefined;
    placed.push({ at: i, id, site });
  });
  checkUnique(placed, problems, defaults.reservedHosts ?? []);
  return problems.length === 0
    ? Result.succeed({ sites: placed.flatMap(({ site }) => (site === undefined ? [] : [site])) })
    : Result.fail(new ConfigError({ problems }));
};

/**
 * A site, or a set of them, as text: equal texts are the same settings (a price is a bigint,
 * which JSON does not write by itself). How a change to the file is told from a rewrite of it.
 */
export const sitesText = (value: SiteDefinition | SitesSet): string =>
  JSON.stringify(value, (_key, field: unknown) => (typeof field === "bigint" ? `${field}n` : field));
