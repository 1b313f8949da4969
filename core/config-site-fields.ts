/**
 * The rules of one field of a site in SITES_FILE, each a pure function from the file's value to
 * the field's value or a problem text (without the `SITES_FILE: sites[i].field: ` prefix, which
 * core/config-sites.ts adds). The same rules as the service's own variables where there is one:
 * origins like ALLOWED_ORIGINS, host names like ALLOWED_HOSTS, tool prices like MCP_TOOL_PRICES.
 */
import * as Result from "effect/Result";
import { isBase58Address } from "./base58.ts";
import { isOrigin, normalizeOrigin } from "./config.ts";
import { MIN_SECRET_LENGTH } from "./config-insights.ts";
import { isTool, MCP_TOOLS, type McpToolPrices, toolPriceProblem } from "./config-mcp.ts";
import { hostName } from "./config-surface.ts";
import { DOCS_LANGUAGES } from "./language-notice.ts";
import { numberToUnits, parseDecimalUnits, UNITS_PER_USDC } from "./payments/money.ts";
import { priceProblem } from "./payments/question-price.ts";

export type Field<A> = Result.Result<A, string>;

/** A value as a problem text shows it: JSON, cut short. */
export const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const fail = (rule: string, value: unknown): Field<never> => Result.fail(`${rule} (got ${shown(value)})`);

/** Printable text without line breaks, 1 to `max` characters (it may reach a prompt or a page). */
export const label = (value: unknown, max: number): Field<string> =>
  typeof value === "string" && value.trim() !== "" && value.length <= max && !/\p{Cc}/u.test(value)
    ? Result.succeed(value.trim())
    : fail(`must be text of 1 to ${max} characters on one line`, value);

/** A language the docs can be analysed in (ISO 639-1, lower case). */
export const language = (value: unknown): Field<string> =>
  typeof value === "string" && DOCS_LANGUAGES.includes(value)
    ? Result.succeed(value)
    : fail(`must be one of ${DOCS_LANGUAGES.join(", ")}`, value);

export const flag = (value: unknown): Field<boolean> =>
  typeof value === "boolean" ? Result.succeed(value) : fail("must be true or false", value);

export const wholeNumber = (value: unknown, min: number, max: number): Field<number> =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
    ? Result.succeed(value)
    : fail(`must be a whole number from ${min} to ${max}`, value);

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A URL kept in sync like DOCS_URL, or a folder (resolved against the sites file's folder by the caller). */
export const docs = (
  value: unknown,
): Field<
  { readonly kind: "url"; readonly url: string } | { readonly kind: "folder"; readonly path: string }
> => {
  const rule = "must be an http(s) URL of a docs site, sitemap or llms.txt, or a folder path";
  if (typeof value !== "string" || value.trim() === "" || value.includes("\u0000")) return fail(rule, value);
  const text = value.trim();
  if (!URL_LIKE.test(text)) return Result.succeed({ kind: "folder", path: text });
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol)
    ? Result.succeed({ kind: "url", url: text })
    : fail(rule, value);
};

/**
 * `baseUrl`: where a folder site's pages are published, so each source links to its page and
 * heading (`<baseUrl>/guide/setup.html#install`, as `npm run ingest -- --base-url` writes them).
 * A query or fragment is refused: page paths are appended to it.
 */
export const baseUrl = (value: unknown): Field<string> => {
  const text = typeof value === "string" ? value.trim() : "";
  // The URL parser drops tabs and line breaks silently; a link must be the text as written.
  const url = URL.canParse(text) && !/[\p{Cc}?#]/u.test(text) ? new URL(text) : undefined;
  return url !== undefined && /^https?:$/.test(url.protocol) && url.hostname !== ""
    ? Result.succeed(text)
    : fail(
        "must be the http(s) URL the folder's pages are published under, like https://docs.example.com/ (no query, no #)",
        value,
      );
};

const list = <A>(value: unknown, each: (item: unknown) => Field<A>): Result.Result<A[], string[]> => {
  if (!Array.isArray(value)) return Result.fail([`must be a list (got ${shown(value)})`]);
  const items: A[] = [];
  const problems: string[] = [];
  for (const item of value) {
    const checked = each(item);
    if (Result.isSuccess(checked)) items.push(checked.success);
    else problems.push(checked.failure);
  }
  return problems.length === 0 ? Result.succeed(items) : Result.fail(problems);
};

/** Origins like ALLOWED_ORIGINS: scheme, host and port, no wildcard, no path. */
export const origins = (value: unknown): Result.Result<string[], string[]> =>
  list(value, (item) => {
    const origin = typeof item === "string" ? normalizeOrigin(item) : "";
    return isOrigin(origin)
      ? Result.succeed(origin)
      : fail("is not an origin like https://docs.example.com (no wildcard, no path)", item);
  });

const WITH_PORT = /^(.+):(\d{1,5})$/;

/** A host name or IP address as the Host header carries it, with its port when given (lower case). */
const host = (item: unknown): Field<string> => {
  const rule = "is not a host name like docs.example.com, with an optional :port (no scheme, no path)";
  if (typeof item !== "string") return fail(rule, item);
  const text = item.trim().toLowerCase();
  const port = WITH_PORT.exec(text);
  // "::1" ends in ":1" too: a port only follows a name, an IPv4 address or a bracketed IPv6.
  const [bare, portText] =
    port !== null && (!port[1]!.includes(":") || port[1]!.endsWith("]"))
      ? [port[1]!, port[2]]
      : [text, undefined];
  const name = hostName(bare);
  if (name === undefined) return fail(rule, item);
  if (portText === undefined) return Result.succeed(name);
  const number = Number(portText);
  return number >= 1 && number <= 65535 ? Result.succeed(`${name}:${number}`) : fail(rule, item);
};

export const hosts = (value: unknown): Result.Result<string[], string[]> =>
  Result.map(list(value, host), (names) => [...new Set(names)]);

export const wallet = (value: unknown): Field<string> =>
  typeof value === "string" && isBase58Address(value)
    ? Result.succeed(value)
    : fail("is not a base58 address", value);

/** `price`: decimal USDC per question ("0.002" or 0.002), exact to the base unit. */
export const price = (value: unknown): Field<bigint> => {
  const rule = 'must be USDC per question, from 0.000001 to 1, like "0.002"';
  const units =
    typeof value === "string"
      ? parseDecimalUnits(value)
      : typeof value === "number"
        ? numberToUnits(value)
        : undefined;
  if (units === undefined || Result.isFailure(units)) return fail(rule, value);
  const n: bigint = units.success;
  // The bounds of every price (question-price.ts): one base unit, and the largest payment (1 USDC).
  return priceProblem(n) === undefined ? Result.succeed(n) : fail(rule, value);
};

/** `questionsPerUsdc`: a whole number dividing 1,000,000 exactly, so one question is whole base units. */
export const questionsPerUsdc = (value: unknown): Field<bigint> => {
  const rule = "must be a whole number from 1 to 1000000 that divides 1000000 (500, 1000, 2000...)";
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 1_000_000)
    return fail(rule, value);
  const questions = BigInt(value);
  return UNITS_PER_USDC % questions === 0n ? Result.succeed(UNITS_PER_USDC / questions) : fail(rule, value);
};

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

export const ownerTokenSha256 = (value: unknown): Field<string> =>
  typeof value === "string" && HEX_SHA256.test(value)
    ? Result.succeed(value.toLowerCase())
    : Result.fail("must be 64 hex characters, the SHA-256 of the owner's token (value hidden)");

const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** The hash of the token held by the variable `value` names; the token is never part of a problem. */
export const ownerTokenEnv = (
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  hashToken: (token: string) => string,
): Field<string> => {
  // Not shown: a token written here by mistake, instead of its variable's name, stays hidden.
  if (typeof value !== "string" || !ENV_NAME.test(value))
    return Result.fail("must name an environment variable like ACME_OWNER_TOKEN (value hidden)");
  const token = env[value]?.trim() ?? "";
  if (token === "") return Result.fail(`${value} is not set`);
  if (token.length < MIN_SECRET_LENGTH)
    return Result.fail(`${value} must be at least ${MIN_SECRET_LENGTH} characters (value hidden)`);
  return Result.succeed(hashToken(token));
};

/** `{ tool: questions }`; tools left out keep the service's price. */
export const mcpToolPrices = (
  value: unknown,
  defaults: McpToolPrices,
): Result.Result<McpToolPrices, string[]> => {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return Result.fail([`must be an object like {"ask_docs": 2, "search_docs": 0} (got ${shown(value)})`]);
  const prices = { ...defaults };
  const problems: string[] = [];
  for (const [tool, questions] of Object.entries(value)) {
    if (!isTool(tool)) {
      problems.push(`"${tool}" is not a tool: ${MCP_TOOLS.join(", ")}`);
      continue;
    }
    const problem = typeof questions === "number" ? toolPriceProblem(tool, questions) : undefined;
    if (typeof questions !== "number" || problem !== undefined)
      problems.push(problem ?? `${tool} must cost a whole number of questions (got ${shown(questions)})`);
    else prices[tool] = questions;
  }
  return problems.length === 0 ? Result.succeed(prices) : Result.fail(problems);
};
