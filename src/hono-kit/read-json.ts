/**
 * Reads a JSON object body and decodes it with a request schema; every failure becomes a
 * 400/415 response with a clear message, listing each bad field.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import * as SchemaIssue from "effect/SchemaIssue";
import type { Context } from "hono";
import type { AppEnv } from "./app-env.ts";

type Decoded<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly response: Response };

const formatter = SchemaIssue.makeFormatterStandardSchemaV1();

/** Absent and null mean the same to every route: null fields are dropped before decoding. */
const withoutNulls = (body: object) => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));

export type JsonObject = Readonly<Record<string, unknown>>;

/** The body as a JSON object; a wrong media type, bad JSON or a non-object is a 415/400 response. */
export const readJsonObject = async (c: Context<AppEnv>): Promise<Decoded<JsonObject>> => {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    const body = {
      success: false,
      error: "Content-Type must be application/json",
      code: "UNSUPPORTED_MEDIA_TYPE",
    };
    return { ok: false, response: c.json(body, 415) };
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    const error = { success: false, error: "Request body is not valid JSON", code: "INVALID_JSON" };
    return { ok: false, response: c.json(error, 400) };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    const error = { success: false, error: "Request body must be a JSON object", code: "INVALID_JSON" };
    return { ok: false, response: c.json(error, 400) };
  }
  return { ok: true, value: body as JsonObject };
};

/**
 * The body, decoded with `schema`. `invalid` renders the field problems (in schema order) as
 * the route's 400 response.
 */
export const readBody = async <S extends Schema.Decoder<unknown>>(
  c: Context<AppEnv>,
  schema: S,
  invalid: (problems: ReadonlyArray<string>) => Response,
): Promise<Decoded<S["Type"]>> => {
  const read = await readJsonObject(c);
  if (!read.ok) return read;
  const decoded = Schema.decodeUnknownResult(schema)(withoutNulls(read.value), { errors: "all" });
  if (Result.isSuccess(decoded)) return { ok: true, value: decoded.success };
  const problems = formatter(decoded.failure.issue).issues.map((issue) => issue.message);
  return { ok: false, response: invalid(problems) };
};
