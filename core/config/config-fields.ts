/**
 * The rules of the settings' fields, each a Schema from the value as written (environment text
 * or a sites file's JSON value) to the value the service uses, with the problem text an operator
 * reads. A rule names what it wants and shows the value it got, except a secret's ("value
 * hidden"). The environment's default site and each sites-file entry share them
 * (core/config/config-site.ts), so a price or an origin is judged by one rule wherever it is written.
 */
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import * as SchemaIssue from "effect/SchemaIssue";
import * as SchemaTransformation from "effect/SchemaTransformation";
import { DOCS_LANGUAGES } from "../answers/language-notice.ts";
import { isBase58Address } from "../base58.ts";
import { numberToUnits, parseDecimalUnits } from "../payments/money.ts";
import { priceProblem } from "../payments/question-price.ts";

/** The environment as the process sees it: every setting is read from such a record. */
export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  problems: Schema.Array(Schema.String),
}) {
  override get message(): string {
    return `Invalid configuration:\n${this.problems.map((problem) => `  - ${problem}`).join("\n")}`;
  }
}

/** Shorter tokens and salts are refused: both must resist guessing. */
export const MIN_SECRET_LENGTH = 16;

/** A value as a problem text shows it: JSON, cut short. */
export const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

type Problems = string | ReadonlyArray<string>;

/** What a record of fields decodes to, each variable optional (left out when unset or bad). */
export type Decoded<F> = { readonly [K in keyof F]?: F[K] extends Schema.Top ? F[K]["Type"] : never };

/** A JSON list of byte values (a secret key as solana-keygen writes it); undefined: not one. */
export const jsonBytes = (text: string): Uint8Array | undefined => {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
      ? Uint8Array.from(parsed as number[])
      : undefined;
  } catch {
    return undefined;
  }
};

/** A field whose `parse` gives its value or its problems (texts without the field's name). */
export const rule = <A>(parse: (input: unknown) => Result.Result<A, Problems>) =>
  Schema.Unknown.pipe(
    Schema.check(
      Schema.makeFilter((input: unknown) => {
        const parsed = parse(input);
        return Result.isFailure(parsed) ? parsed.failure : undefined;
      }),
    ),
    Schema.decodeTo(
      Schema.Unknown as unknown as Schema.Codec<A>,
      SchemaTransformation.transform({
        decode: (input: unknown) => Result.getOrThrow(parse(input)),
        encode: (value: A): unknown => value,
      }),
    ),
  );

/** The usual field: one rule text, then the value as given, or "value hidden" for a secret. */
export const field = <A>(text: string, parse: (input: unknown) => A | undefined, secret = false) =>
  rule((input) => {
    const value = parse(input);
    return value === undefined
      ? Result.fail(`${text} (${secret ? "value hidden" : `got ${shown(input)}`})`)
      : Result.succeed(value);
  });

const string = (input: unknown): string | undefined => (typeof input === "string" ? input.trim() : undefined);

/** Environment text as a whole number when it is digits only ("1e3" and " 0x10" stay text). */
export const digits = (text: string): number | string => (/^\d{1,13}$/.test(text) ? Number(text) : text);

/** A whole number written as environment text (digits only) or as a JSON number. */
export const envInteger = (min: number, max: number) =>
  rule((input) => {
    const value = typeof input === "string" ? digits(input) : input;
    return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
      ? Result.succeed(value)
      : Result.fail(`must be a whole number from ${min} to ${max} (got ${shown(value)})`);
  });

export const wholeNumber = (min: number, max: number) =>
  field(`must be a whole number from ${min} to ${max}`, (input) =>
    typeof input === "number" && Number.isInteger(input) && input >= min && input <= max ? input : undefined,
  );

export const Flag = field("must be true or false", (input) => {
  if (typeof input === "boolean") return input;
  const word = string(input)?.toLowerCase();
  return word === "true" || word === "1" ? true : word === "false" || word === "0" ? false : undefined;
});

/** Printable text without line breaks, 1 to `max` characters (it may reach a prompt or a page). */
export const label = (max: number) =>
  field(`must be text of 1 to ${max} characters on one line`, (input) =>
    typeof input === "string" && input.trim() !== "" && input.length <= max && !/\p{Cc}/u.test(input)
      ? input.trim()
      : undefined,
  );

export const Url = (secret = false) =>
  field(
    "is not a valid URL",
    (input) => (URL.canParse(string(input) ?? "") ? string(input) : undefined),
    secret,
  );

export const httpUrl = (text: string): string | undefined =>
  URL.canParse(text) && /^https?:$/.test(new URL(text).protocol) ? text : undefined;

/** A secret of at least MIN_SECRET_LENGTH characters, never shown, kept `Redacted`. */
export const Secret = field(
  `must be at least ${MIN_SECRET_LENGTH} characters`,
  (input) => {
    const text = string(input);
    return text !== undefined && text.length >= MIN_SECRET_LENGTH ? Redacted.make(text) : undefined;
  },
  true,
);

export const Text = field("must be text", (input) => (typeof input === "string" ? input : undefined));

/** Any text, kept `Redacted` (an API key: its form is the provider's to judge). */
export const Opaque = field("must be text", (input) =>
  typeof input === "string" ? Redacted.make(input) : undefined,
);

export const Language = field(`must be one of ${DOCS_LANGUAGES.join(", ")}`, (input) =>
  typeof input === "string" && DOCS_LANGUAGES.includes(input) ? input : undefined,
);

export const Wallet = field("is not a base58 address", (input) =>
  typeof input === "string" && isBase58Address(input) ? input : undefined,
);

/** USDC per question ("0.002" or 0.002), exact to the base unit, from one base unit to 1 USDC. */
export const Price = field('must be USDC per question, from 0.000001 to 1, like "0.002"', (input) => {
  const units =
    typeof input === "string"
      ? parseDecimalUnits(input.trim())
      : typeof input === "number"
        ? numberToUnits(input)
        : undefined;
  return units !== undefined && Result.isSuccess(units) && priceProblem(units.success) === undefined
    ? units.success
    : undefined;
});

/** An allowed origin as written, without its trailing slash. */
export const normalizeOrigin = (text: string): string => text.trim().replace(/\/$/, "");

/** A normalized origin: scheme, host and port only, no wildcard (ALLOWED_ORIGINS and a site's `origins`). */
export const isOrigin = (origin: string): boolean =>
  !origin.includes("*") && URL.canParse(origin) && new URL(origin).origin === origin;

/** A list whose every item passes `each`; every bad item named. */
export const list = <A>(each: (item: unknown) => Result.Result<A, string>) =>
  rule((input): Result.Result<ReadonlyArray<A>, Problems> => {
    if (!Array.isArray(input)) return Result.fail(`must be a list (got ${shown(input)})`);
    const items = input.map(each);
    const bad = items.flatMap((item) => (Result.isFailure(item) ? [item.failure] : []));
    return bad.length > 0
      ? Result.fail(bad)
      : Result.succeed(items.flatMap((item) => (Result.isSuccess(item) ? [item.success] : [])));
  });

/** One item of a list: its value, or the rule and the item as given. */
export const item =
  <A>(text: string, parse: (input: unknown) => A | undefined) =>
  (input: unknown): Result.Result<A, string> => {
    const value = parse(input);
    return value === undefined ? Result.fail(`${text} (got ${shown(input)})`) : Result.succeed(value);
  };

export const Origins = list(
  item("is not an origin like https://docs.example.com (no wildcard, no path)", (input) => {
    const origin = typeof input === "string" ? normalizeOrigin(input) : "";
    return isOrigin(origin) ? origin : undefined;
  }),
);

/** A field written as environment text that `convert` makes into what `schema` decodes (a list, pairs). */
export const fromText = <A>(convert: (text: string) => unknown, schema: Schema.Decoder<A>) =>
  rule((input): Result.Result<A, Problems> => {
    const decoded = Schema.decodeUnknownResult(schema)(convert(String(input)), { errors: "all" });
    return Result.isSuccess(decoded)
      ? Result.succeed(decoded.success)
      : Result.fail(problemsOf(decoded.failure.issue, () => "").map((text) => text.slice(2)));
  });

/** The problems of a failed decode, each as `<where>: <text>`; `where` names a path's place. */
export const problemsOf = (
  issue: SchemaIssue.Issue,
  where: (path: ReadonlyArray<PropertyKey>) => string,
  known: ReadonlyArray<string> = [],
): ReadonlyArray<string> =>
  SchemaIssue.makeFormatterStandardSchemaV1({
    leafHook: (leaf) =>
      leaf._tag === "MissingKey"
        ? "required"
        : leaf._tag === "UnexpectedKey"
          ? `unknown key (known: ${known.join(", ")})`
          : SchemaIssue.defaultLeafHook(leaf),
  })(issue).issues.map(
    ({ path, message }) =>
      `${where((path ?? []).map((key) => (typeof key === "object" ? key.key : key)))}: ${message}`,
  );
