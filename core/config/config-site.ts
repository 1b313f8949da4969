/**
 * A docs site's settings as one Schema: its docs (a URL kept in sync, or a folder with the URL
 * its pages are published under), widget origins, host names, price, free questions, wallet,
 * owner token, MCP tool prices and answer settings. Each entry of the sites file (SITES_FILE)
 * is decoded by it (core/config/config-sites-file.ts), and the default site's fields from the
 * environment take the same rules (core/config/config-site-default.ts), so a field has one rule
 * wherever it is written. An unknown key is a problem, since a misspelt setting must not
 * silently leave its default in place. Secret values (the owner's token and its hash) never
 * appear in a problem.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { UNITS_PER_USDC } from "../payments/money.ts";
import { DEFAULT_SITE } from "../payments/payment-settings.ts";
import {
  field,
  httpUrl,
  item,
  Language,
  label,
  list,
  Origins,
  Price,
  rule,
  shown,
  Wallet,
  wholeNumber,
} from "./config-fields.ts";
import { MAX_TOOL_QUESTIONS, MCP_TOOLS, type McpToolPrices } from "./config-mcp.ts";
import { hostName } from "./config-surface.ts";

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

export const DOCS_RULE = "must be an http(s) URL of a docs site, sitemap or llms.txt";
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
export const ToolPrices = rule((input): Result.Result<Partial<McpToolPrices>, ReadonlyArray<string>> => {
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

export const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** Not shown: a token written here by mistake, instead of its variable's name, stays hidden. */
const OwnerTokenEnv = field(
  "must name an environment variable like ACME_OWNER_TOKEN",
  (input) => (typeof input === "string" && ENV_NAME.test(input) ? input : undefined),
  true,
);

export type { Env } from "./config-fields.ts";

const optional = Schema.optionalKey;

/** A sites-file entry's `llm`: JSON's true or false (the text "false" would read as on). */
const Llm = field("must be true or false", (input) => (typeof input === "boolean" ? input : undefined));

/** A site's fields, as a sites-file entry writes them. */
export const SITE_FIELDS = {
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
export const Site = Schema.Struct(SITE_FIELDS);
export const SITE_KEYS = Object.keys(SITE_FIELDS);
