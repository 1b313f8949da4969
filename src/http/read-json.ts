/** Reads a JSON object body; failures become 400/415 responses with a clear message. */
import type { Context } from "hono";
import type { AppEnv } from "./app-env.ts";

export type JsonObject = Readonly<Record<string, unknown>>;

export const readJsonObject = async (
  c: Context<AppEnv>,
): Promise<
  { readonly ok: true; readonly body: JsonObject } | { readonly ok: false; readonly response: Response }
> => {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    return {
      ok: false,
      response: c.json(
        { success: false, error: "Content-Type must be application/json", code: "UNSUPPORTED_MEDIA_TYPE" },
        415,
      ),
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return {
      ok: false,
      response: c.json(
        { success: false, error: "Request body is not valid JSON", code: "INVALID_JSON" },
        400,
      ),
    };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return {
      ok: false,
      response: c.json(
        { success: false, error: "Request body must be a JSON object", code: "INVALID_JSON" },
        400,
      ),
    };
  }
  return { ok: true, body: body as JsonObject };
};

/** Describes a field whose type is wrong, or undefined when it is fine. */
export const fieldTypeProblem = (
  body: JsonObject,
  field: string,
  type: "string" | "number" | "boolean",
  required: boolean,
) => {
  const value = body[field];
  if (value === undefined || value === null) return required ? `${field} is required` : undefined;
  return typeof value === type ? undefined : `${field} must be a ${type}`;
};
