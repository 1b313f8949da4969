/**
 * Reads environment variables through the settings' field rules (core/config-fields.ts),
 * collecting every problem instead of stopping at the first, so one ConfigError can list them
 * all. A problem names the variable and the rule; the value is shown only for variables that
 * are not secret.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { digits, Flag, problemsOf, Url, wholeNumber } from "./config-fields.ts";

export type Env = Readonly<Record<string, string | undefined>>;

export const reader = (env: Env) => {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  /** Decodes variable `name` (as `input` makes it) with `schema`; on failure records its problems. */
  const decode = <A>(name: string, schema: Schema.Decoder<A>, input: (text: string) => unknown = String) => {
    const value = text(name);
    if (value === undefined) return undefined;
    const decoded = Schema.decodeUnknownResult(schema)(input(value));
    if (Result.isSuccess(decoded)) return decoded.success;
    problems.push(...problemsOf(decoded.failure.issue, () => name));
    return undefined;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number =>
    decode(name, wholeNumber(min, max), digits) ?? fallback;
  const flag = (name: string): boolean => decode(name, Flag) ?? false;
  const url = (name: string, secret = false): string | undefined => decode(name, Url(secret));
  return { problems, text, integer, flag, url };
};

export type Reader = ReturnType<typeof reader>;
