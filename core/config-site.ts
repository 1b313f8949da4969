/**
 * A docs site's settings as one Schema: its docs (a URL kept in sync, or a folder with the URL
 * its pages are published under), widget origins, host names, price, free questions, wallet,
 * owner token, MCP tool prices and answer settings. Each entry of the sites file (SITES_FILE)
 * is decoded by it, and so is the default site from the environment (DEFAULT_SITE_VARIABLES
 * name the variables of its fields), so a field has one rule wherever it is written. Every
 * problem is named at once (`SITES_FILE: sites[2].price: ...`), an unknown key included, since a
 * misspelt setting must not silently leave its default in place. Secret values (the owner's
 * token and its hash) never appear in a problem.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import {
  ConfigError,
  digits,
  field,
  httpUrl,
  item,
  Language,
  label,
  list,
  MIN_SECRET_LENGTH,
  normalizeOrigin,
  Origins,
  Price,
  problemsOf,
  rule,
  shown,
  Wallet,
  wholeNumber,
} from "./config-fields.ts";
import { DEFAULT_MCP_TOOL_PRICES, MAX_TOOL_QUESTIONS, MCP_TOOLS, type McpToolPrices } from "./config-mcp.ts";
import { hostName } from "./config-surface.ts";
import { hostName as bareHostName } from "./host-name.ts";
import { UNITS_PER_USDC } from "./payments/money.ts";
import { DEFAULT_SITE } from "./payments/payment-settings.ts";
import { DEFAULT_UNITS_PER_QUERY } from "./payments/question-price.ts";

export const SITE_ID = /^[a-z0-9-]{1,40}$/;

export type Docs =
  | { readonly kind: "url"; readonly url: string }
  | {
      readonly kind: "folder";
      readonly path: string;
      /** Where the folder's pages are published (`baseUrl`); without it sources carry no link. */
      readonly baseUrl?: string | undefined;
    };

export interface SiteDefinition {
  readonly id: string;
  readonly docs: Docs;
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

const DOCS_RULE = "must be an http(s) URL of a docs site, sitemap or llms.txt";
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A URL kept in sync like DOCS_URL, or a folder (resolved against the sites file's folder by the caller). */
const SiteDocs = field(`${DOCS_RULE}, or a folder path`, (input): Docs | undefined => {
  if (typeof input !== "string" || input.trim() === "" || input.includes("\u0000")) return undefined;
  const text = input.trim();
  if (!URL_LIKE.test(text)) return { kind: "folder", path: text };
  return httpUrl(text) === undefined ? undefined : { kind: "url", url: text };
});

/** A folder site's public URL: page paths are appended to it, so no query and no fragment. */
const BaseUrl = field(
  "must be the http(s) URL the folder's pages are published under, like https://docs.example.com/ (no query, no #)",
  (input) => {
    const text = typeof input === "string" ? input.trim() : "";
    // The URL parser drops tabs and line breaks silently; a link must be the text as written.
    return !/[\p{Cc}?#]/u.test(text) && httpUrl(text) !== undefined && new URL(text).hostname !== ""
      ? text
      : undefined;
  },
);

const WITH_PORT = /^(.+):(\d{1,5})$/;

/** A host name or IP address as the Host header carries it, with its port when given (lower case). */
const host = item(
  "is not a host name like docs.example.com, with an optional :port (no scheme, no path)",
  (input) => {
    if (typeof input !== "string") return undefined;
    const text = input.trim().toLowerCase();
    const port = WITH_PORT.exec(text);
    // "::1" ends in ":1" too: a port only follows a name, an IPv4 address or a bracketed IPv6.
    const [bare, portText] =
      port !== null && (!port[1]!.includes(":") || port[1]!.endsWith("]"))
        ? [port[1]!, port[2]]
        : [text, undefined];
    const name = hostName(bare);
    const number = Number(portText);
    if (name === undefined || (portText !== undefined && (number < 1 || number > 65535))) return undefined;
    return portText === undefined ? name : `${name}:${number}`;
  },
);

const Hosts = list(host);

/** `questionsPerUsdc`: a whole number dividing 1,000,000 exactly, so one question is whole base units. */
const QuestionsPerUsdc = field(
  "must be a whole number from 1 to 1000000 that divides 1000000 (500, 1000, 2000...)",
  (input) =>
    typeof input === "number" &&
    Number.isInteger(input) &&
    input >= 1 &&
    input <= 1_000_000 &&
    UNITS_PER_USDC % BigInt(input) === 0n
      ? UNITS_PER_USDC / BigInt(input)
      : undefined,
);

/** `{ tool: questions }`; `ask_docs` answers a question, so it takes at least one. */
const ToolPrices = rule((input): Result.Result<Partial<McpToolPrices>, ReadonlyArray<string>> => {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return Result.fail([`must be an object like {"ask_docs": 2, "search_docs": 0} (got ${shown(input)})`]);
  const problems: string[] = [];
  for (const [tool, questions] of Object.entries(input)) {
    const least = tool === "ask_docs" ? 1 : 0;
    if (!(MCP_TOOLS as ReadonlyArray<string>).includes(tool))
      problems.push(`"${tool}" is not a tool: ${MCP_TOOLS.join(", ")}`);
    else if (typeof questions !== "number" || !Number.isInteger(questions))
      problems.push(`${tool} must cost a whole number of questions (got ${shown(questions)})`);
    else if (questions < least || questions > MAX_TOOL_QUESTIONS)
      problems.push(`${tool} must cost from ${least} to ${MAX_TOOL_QUESTIONS} questions (got ${questions})`);
  }
  return problems.length > 0 ? Result.fail(problems) : Result.succeed(input as Partial<McpToolPrices>);
});

const Id = rule((input) =>
  input === DEFAULT_SITE
    ? Result.fail(`"${DEFAULT_SITE}" is the site the environment's settings make; choose another id`)
    : typeof input === "string" && SITE_ID.test(input)
      ? Result.succeed(input)
      : Result.fail(`must be 1 to 40 of a-z, 0-9 and - (got ${shown(input)})`),
);

const OwnerTokenSha256 = field(
  "must be 64 hex characters, the SHA-256 of the owner's token",
  (input) => (typeof input === "string" && /^[0-9a-f]{64}$/i.test(input) ? input.toLowerCase() : undefined),
  true,
);

const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** Not shown: a token written here by mistake, instead of its variable's name, stays hidden. */
const OwnerTokenEnv = field(
  "must name an environment variable like ACME_OWNER_TOKEN",
  (input) => (typeof input === "string" && ENV_NAME.test(input) ? input : undefined),
  true,
);

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

export type Env = Readonly<Record<string, string | undefined>>;

const optional = Schema.optionalKey;

/** A sites-file entry's `llm`: JSON's true or false (the text "false" would read as on). */
const Llm = field("must be true or false", (input) => (typeof input === "boolean" ? input : undefined));

/** A site's fields, as a sites-file entry writes them. */
const SITE_FIELDS = {
  id: Id,
  docs: SiteDocs,
  baseUrl: optional(BaseUrl),
  origins: optional(Origins),
  hosts: optional(Hosts),
  title: optional(label(120)),
  price: optional(Price),
  questionsPerUsdc: optional(QuestionsPerUsdc),
  freeQuestions: optional(wholeNumber(0, 1_000_000)),
  wallet: optional(Wallet),
  ownerTokenSha256: optional(OwnerTokenSha256),
  ownerTokenEnv: optional(OwnerTokenEnv),
  mcpToolPrices: optional(ToolPrices),
  llm: optional(Llm),
  productName: optional(label(80)),
  language: optional(Language),
};
const Site = Schema.Struct(SITE_FIELDS);
const SITE_KEYS = Object.keys(SITE_FIELDS);

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

/** The variable each field of the default site is read from, and how its text becomes the field's value. */
export const DEFAULT_SITE_VARIABLES = {
  docs: ["DOCS_URL", (text: string) => text],
  price: ["PRICE_PER_QUESTION", (text: string) => text],
  freeQuestions: ["RATE_LIMIT_FREE_QUERIES", digits],
  origins: [
    "ALLOWED_ORIGINS",
    (text: string) =>
      text
        .split(",")
        .map(normalizeOrigin)
        .filter((o) => o !== ""),
  ],
  mcpToolPrices: [
    "MCP_TOOL_PRICES",
    (text: string) =>
      Object.fromEntries(
        text
          .split(",")
          .map((pair) => pair.split("=").map((part) => part.trim()))
          .map(([tool, n]) => [tool, n === undefined ? undefined : digits(n)]),
      ),
  ],
  language: ["DOCS_LANGUAGE", (text: string) => text.toLowerCase()],
} as const satisfies Record<string, readonly [string, (text: string) => unknown]>;

/** Free questions per client per UTC day unless RATE_LIMIT_FREE_QUERIES says otherwise. */
export const DEFAULT_FREE_QUERIES = 3;

/** The default site's fields: the same rules, but its docs are a URL only (a folder site is a sites-file entry). */
const DefaultSite = Schema.Struct({
  docs: optional(field(DOCS_RULE, (input) => (typeof input === "string" ? httpUrl(input) : undefined))),
  price: SITE_FIELDS.price,
  freeQuestions: SITE_FIELDS.freeQuestions,
  origins: SITE_FIELDS.origins,
  mcpToolPrices: SITE_FIELDS.mcpToolPrices,
  language: SITE_FIELDS.language,
});

/** The default site's settings from the environment; `problems` gets each bad variable's. */
export const decodeDefaultSite = (text: (name: string) => string | undefined, problems: string[]) => {
  const raw: Record<string, unknown> = {};
  for (const [key, [name, read]] of Object.entries(DEFAULT_SITE_VARIABLES)) {
    const value = text(name);
    if (value !== undefined) raw[key] = (read as (text: string) => unknown)(value);
  }
  const decoded = Schema.decodeUnknownResult(DefaultSite)(raw, { errors: "all" });
  if (Result.isFailure(decoded))
    problems.push(
      ...problemsOf(
        decoded.failure.issue,
        ([key]) => DEFAULT_SITE_VARIABLES[key as keyof typeof DEFAULT_SITE_VARIABLES][0],
      ),
    );
  const site = Result.getOrElse(decoded, () => ({}) as typeof DefaultSite.Type);
  return {
    docsUrl: site.docs,
    unitsPerQuery: site.price ?? DEFAULT_UNITS_PER_QUERY,
    freeQueries: site.freeQuestions ?? DEFAULT_FREE_QUERIES,
    allowedOrigins: site.origins ?? [],
    mcpToolPrices: { ...DEFAULT_MCP_TOOL_PRICES, ...site.mcpToolPrices },
    docsLanguage: site.language,
  };
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
