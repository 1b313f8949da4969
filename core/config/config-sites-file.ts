/**
 * The sites file (SITES_FILE): each entry decoded by the site Schema (core/config/config-site.ts), then
 * the rules across its fields and across entries (an id or host name is one site's). Every
 * problem is named at once (`SITES_FILE: sites[2].price: ...`), never a secret value.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { hostName as bareHostName } from "../host-name.ts";
import { DEFAULT_UNITS_PER_QUERY } from "../payments/question-price.ts";
import { ConfigError, httpUrl, MIN_SECRET_LENGTH, problemsOf, shown } from "./config-fields.ts";
import {
  ENV_NAME,
  type Env,
  SITE_ID,
  SITE_KEYS,
  Site,
  type SiteDefaults,
  type SiteDefinition,
  type SitesSet,
} from "./config-site.ts";

/** The hash of the token the variable `name` holds, or why not; the token is never part of a problem. */
const ownerTokenOf = (
  name: string,
  env: Env,
  hashToken: (token: string) => string,
): Result.Result<string, string> => {
  const token = env[name]?.trim() ?? "";
  // The environment is the service's, read at its start: a variable exported later is never seen.
  if (token === "")
    return Result.fail(
      `${name} is not set in the service's environment (a variable exported after the start is not seen); give ownerTokenSha256 instead, the output of: printf %s "$${name}" | sha256sum`,
    );
  if (token.length < MIN_SECRET_LENGTH)
    return Result.fail(`${name} must be at least ${MIN_SECRET_LENGTH} characters (value hidden)`);
  return Result.succeed(hashToken(token));
};

/** Rules across fields, checked on the entry as written so they are named beside its other problems. */
const crossProblems = (raw: Readonly<Record<string, unknown>>): ReadonlyArray<readonly [string, string]> => {
  const both = (a: string, b: string) =>
    raw[a] !== undefined && raw[b] !== undefined ? [[a, `give ${a} or ${b}, not both`] as const] : [];
  const urlSite = typeof raw.docs === "string" && httpUrl(raw.docs.trim()) !== undefined;
  return [
    ...both("price", "questionsPerUsdc"),
    ...both("ownerTokenSha256", "ownerTokenEnv"),
    ...(raw.baseUrl !== undefined && urlSite
      ? [["baseUrl", "only for a folder site: a URL site's sources already link to its pages"] as const]
      : []),
  ];
};

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One entry of the sites file, or its problems (each `<key>: <text>`). */
const decodeSite = (
  entry: Readonly<Record<string, unknown>>,
  env: Env,
  defaults: SiteDefaults,
): Result.Result<SiteDefinition, ReadonlyArray<string>> => {
  // A key given as undefined (a test's spread, never JSON) is a key left out.
  const raw = Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
  const decoded = Schema.decodeUnknownResult(Site)(raw, { errors: "all", onExcessProperty: "error" });
  // Read even when other fields are bad, so an unset variable is named beside them.
  const tokenEnv =
    typeof raw.ownerTokenEnv === "string" && ENV_NAME.test(raw.ownerTokenEnv) ? raw.ownerTokenEnv : undefined;
  const token = tokenEnv === undefined ? undefined : ownerTokenOf(tokenEnv, env, defaults.hashToken);
  const problems = [
    ...crossProblems(raw).map(([key, text]) => `${key}: ${text}`),
    ...(Result.isFailure(decoded)
      ? problemsOf(decoded.failure.issue, ([key]) => String(key), SITE_KEYS)
      : []),
    ...(token !== undefined && Result.isFailure(token) ? [`ownerTokenEnv: ${token.failure}`] : []),
  ];
  if (Result.isFailure(decoded) || problems.length > 0) return Result.fail(problems);
  const site = decoded.success;
  return Result.succeed({
    id: site.id,
    docs:
      site.docs.kind === "folder" && site.baseUrl !== undefined
        ? { ...site.docs, baseUrl: site.baseUrl }
        : site.docs,
    origins: site.origins ?? [],
    hosts: [...new Set(site.hosts)],
    title: site.title,
    unitsPerQuery: site.price ?? site.questionsPerUsdc ?? defaults.unitsPerQuery ?? DEFAULT_UNITS_PER_QUERY,
    freeQueries: site.freeQuestions ?? defaults.freeQueries,
    wallet: site.wallet,
    ownerTokenSha256:
      site.ownerTokenSha256 ?? (token === undefined ? undefined : Result.getOrUndefined(token)),
    mcpToolPrices: { ...defaults.mcpToolPrices, ...site.mcpToolPrices },
    llm: site.llm ?? true,
    productName: site.productName,
    ...(site.language === undefined ? {} : { language: site.language }),
  });
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
 * bad price and a repeated id names both at once.
 */
const checkUnique = (placed: ReadonlyArray<Placed>, problems: string[], reserved: ReadonlyArray<string>) => {
  const ids = new Map<string, number>();
  const hosts = new Map<string, string>();
  for (const { at, id, site } of placed) {
    const first = id === undefined ? undefined : ids.get(id);
    if (id !== undefined && first === undefined) ids.set(id, at);
    else if (id !== undefined)
      problems.push(`SITES_FILE: sites[${at}].id: "${id}" is also the id of sites[${first}]`);
    for (const name of site?.hosts ?? []) {
      const bare = bareHostName(name);
      if (reserved.includes(bare)) {
        problems.push(
          `SITES_FILE: sites[${at}].hosts: "${name}" is the service's own host name (PUBLIC_ORIGIN, ALLOWED_HOSTS or a loopback name); serve the site under /sites/${site?.id ?? "<id>"}/ there instead`,
        );
        continue;
      }
      // A name is one site's whatever the port (the edge routes by the name).
      const owner = hosts.get(bare);
      if (owner === undefined) hosts.set(bare, site?.id ?? "");
      else if (owner !== site?.id)
        problems.push(`SITES_FILE: sites[${at}].hosts: "${name}" is also a host of site "${owner}"`);
    }
  }
};

/** Validates the sites file's content (already read from JSON or YAML) into the set of sites. */
export const parseSites = (
  raw: unknown,
  env: Env,
  defaults: SiteDefaults,
): Result.Result<SitesSet, ConfigError> => {
  if (!isRecord(raw) || !Array.isArray(raw.sites))
    return Result.fail(
      new ConfigError({ problems: ['SITES_FILE: must hold {"sites": [...]}, a list of sites'] }),
    );
  const problems = Object.keys(raw)
    .filter((key) => key !== "sites")
    .map((key) => `SITES_FILE: ${key}: unknown key (known: sites)`);
  const placed = raw.sites.map((entry: unknown, at: number): Placed => {
    if (!isRecord(entry)) {
      problems.push(`SITES_FILE: sites[${at}]: must be an object with an id and docs (got ${shown(entry)})`);
      return { at, id: undefined, site: undefined };
    }
    const site = decodeSite(entry, env, defaults);
    if (Result.isFailure(site))
      problems.push(...site.failure.map((text) => `SITES_FILE: sites[${at}].${text}`));
    const id = typeof entry.id === "string" && SITE_ID.test(entry.id) ? entry.id : undefined;
    return { at, id, site: Result.getOrUndefined(site) };
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
