/**
 * Reads environment variables through Schema codecs (text -> typed value), collecting every
 * problem instead of stopping at the first, so one ConfigError can list them all. A problem
 * names the variable and the rule; the value is shown only for variables that are not secret.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";

export type Env = Readonly<Record<string, string | undefined>>;

const WholeNumber = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{1,9}$/)));
const wholeNumberBetween = (minimum: number, maximum: number) =>
  Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum, maximum })));
const FLAG_WORDS: ReadonlyArray<string> = ["true", "false", "1", "0"];
const Flag = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((text: string) => FLAG_WORDS.includes(text.toLowerCase()) || "true or false"),
  ),
);
const UrlText = Schema.String.pipe(
  Schema.check(Schema.makeFilter((text: string) => URL.canParse(text) || "a URL")),
);

export const reader = (env: Env) => {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  /** Decodes variable `name` with `schema`; on failure records `rule` and returns undefined. */
  const decode = <A>(
    name: string,
    schema: Schema.Codec<A, string>,
    rule: string,
    secret = false,
  ): A | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const decoded = Schema.decodeUnknownResult(schema)(value);
    if (Result.isSuccess(decoded)) return decoded.success;
    problems.push(`${name}: ${rule} (${secret ? "value hidden" : `got "${value}"`})`);
    return undefined;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const rule = `must be a whole number from ${min} to ${max}`;
    // Digits only first: NumberFromString alone would also take "1e3" or " 0x10".
    if (decode(name, WholeNumber, rule) === undefined) return fallback;
    return decode(name, wholeNumberBetween(min, max), rule) ?? fallback;
  };
  const flag = (name: string): boolean => {
    const value = decode(name, Flag, "must be true or false")?.toLowerCase();
    return value === "true" || value === "1";
  };
  const url = (name: string, secret = false): string | undefined =>
    decode(name, UrlText, "is not a valid URL", secret);
  return { problems, text, integer, flag, url };
};

export type Reader = ReturnType<typeof reader>;
