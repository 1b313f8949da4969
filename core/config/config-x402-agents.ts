/**
 * What this service tells agents beside its prices (x402 extensions). X402_RECEIPT_SIGNING_KEY
 * is the Ed25519 seed (64 hex characters, `openssl rand -hex 32`) that signs offers and receipts
 * (offer-receipt); unset, nothing is signed (`npm start` generates one in .data/). The service's
 * name, tags and icon for catalogues (bazaar) are checked by the spec's rules, so that no
 * catalogue silently drops them. The seed is never shown in a problem.
 */
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { type Decoded, field, rule } from "./config-fields.ts";

export interface X402AgentsConfig {
  readonly receiptSigningKey: Redacted.Redacted<Uint8Array> | undefined;
  readonly service: {
    readonly serviceName: string;
    readonly tags: ReadonlyArray<string>;
    readonly iconUrl: string | undefined;
  };
}

export const DEFAULT_SERVICE_NAME = "Docs assistant";
export const DEFAULT_SERVICE_TAGS = ["docs", "search", "answers", "mcp"] as const;
const MAX_TEXT = 32;
const MAX_TAGS = 5;
export const MAX_ICON_URL_CHARS = 2048;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const HEX_SEED = /^[0-9a-fA-F]{64}$/;
const LOOPBACK = ["localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"];

/** Whether `text` fits a catalogue's name and tag rule (printable ASCII, at most 32 characters). */
export const isCatalogText = (text: string) => PRINTABLE_ASCII.test(text) && text.length <= MAX_TEXT;

/** The bazaar spec's iconUrl rule: absolute http(s), no userinfo, a named host (no IP literal, no loopback). */
const isIconUrl = (text: string): boolean => {
  if (text.length > MAX_ICON_URL_CHARS || !URL.canParse(text)) return false;
  const url = new URL(text);
  const host = url.hostname.toLowerCase();
  return (
    (url.protocol === "https:" || url.protocol === "http:") &&
    url.username === "" &&
    url.password === "" &&
    !host.startsWith("[") &&
    !/^[\d.]+$/.test(host) &&
    !/^0x[0-9a-f]+$/.test(host) &&
    !LOOPBACK.includes(host)
  );
};

const tagsOf = (text: string) =>
  text
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");

/** The agents' variables, as fields of the service's settings (core/config/config-service.ts). */
export const X402_AGENTS_FIELDS = {
  X402_RECEIPT_SIGNING_KEY: rule((input) =>
    typeof input === "string" && HEX_SEED.test(input)
      ? Result.succeed(
          Redacted.make(Uint8Array.from(input.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16))),
        )
      : Result.fail("must be 64 hex characters (a 32-byte Ed25519 seed; value hidden)"),
  ),
  X402_SERVICE_NAME: rule((input) =>
    isCatalogText(String(input))
      ? Result.succeed(String(input))
      : Result.fail(`at most ${MAX_TEXT} printable ASCII characters (got "${input}")`),
  ),
  X402_SERVICE_TAGS: rule((input) => {
    const tags = tagsOf(String(input));
    return tags.length <= MAX_TAGS && tags.every(isCatalogText)
      ? Result.succeed(tags)
      : Result.fail(
          `at most ${MAX_TAGS} comma-separated tags of at most ${MAX_TEXT} printable ASCII characters (got "${tags.join(",")}")`,
        );
  }),
  X402_SERVICE_ICON_URL: field(
    `an absolute http(s) URL of at most ${MAX_ICON_URL_CHARS} characters on a named host (no IP address, no localhost)`,
    (input) => (typeof input === "string" && isIconUrl(input) ? input : undefined),
  ),
};

type X402AgentsSettings = Decoded<typeof X402_AGENTS_FIELDS>;

export const x402AgentsOf = (s: X402AgentsSettings): X402AgentsConfig => ({
  receiptSigningKey: s.X402_RECEIPT_SIGNING_KEY,
  service: {
    serviceName: s.X402_SERVICE_NAME ?? DEFAULT_SERVICE_NAME,
    tags: s.X402_SERVICE_TAGS ?? DEFAULT_SERVICE_TAGS,
    iconUrl: s.X402_SERVICE_ICON_URL,
  },
});
