/**
 * The default site's fields (id `default`), read from the environment by the site's own rules
 * (core/config/config-site.ts): each variable's text is made into what a sites-file entry would write
 * (a comma list into a list, `tool=questions` pairs into an object) and judged by the same rule,
 * so a price or an origin means one thing wherever it is written. Its docs are a URL only (a
 * folder site is a sites-file entry). Its free questions are the free-questions ceiling's
 * setting (core/ceilings/ceilings.ts), read there.
 */

import { DEFAULT_UNITS_PER_QUERY } from "../payments/question-price.ts";
import {
  type Decoded,
  digits,
  field,
  fromText,
  httpUrl,
  Language,
  normalizeOrigin,
  Origins,
  Price,
} from "./config-fields.ts";
import { DEFAULT_MCP_TOOL_PRICES } from "./config-mcp.ts";
import { DOCS_RULE, ToolPrices } from "./config-site.ts";

const commaList = (text: string) =>
  text
    .split(",")
    .map(normalizeOrigin)
    .filter((origin) => origin !== "");

const toolPairs = (text: string) =>
  Object.fromEntries(
    text
      .split(",")
      .map((pair) => pair.split("=").map((part) => part.trim()))
      .map(([tool, n]) => [tool, n === undefined ? undefined : digits(n)]),
  );

/** The default site's variables, as fields of the service's settings (core/config/config-service.ts). */
export const DEFAULT_SITE_FIELDS = {
  DOCS_URL: field(DOCS_RULE, (input) => (typeof input === "string" ? httpUrl(input) : undefined)),
  PRICE_PER_QUESTION: Price,
  ALLOWED_ORIGINS: fromText(commaList, Origins),
  MCP_TOOL_PRICES: fromText(toolPairs, ToolPrices),
  DOCS_LANGUAGE: fromText((text) => text.toLowerCase(), Language),
};

type DefaultSiteSettings = Decoded<typeof DEFAULT_SITE_FIELDS>;

/** The default site's settings, each variable left out taking its default. */
export const defaultSiteOf = (s: DefaultSiteSettings) => ({
  docsUrl: s.DOCS_URL,
  unitsPerQuery: s.PRICE_PER_QUESTION ?? DEFAULT_UNITS_PER_QUERY,
  allowedOrigins: s.ALLOWED_ORIGINS ?? [],
  mcpToolPrices: { ...DEFAULT_MCP_TOOL_PRICES, ...s.MCP_TOOL_PRICES },
  docsLanguage: s.DOCS_LANGUAGE,
});
