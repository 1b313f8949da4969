/**
 * The bazaar extension (x402 `specs/extensions/bazaar.md`) of a paid resource: how to call it
 * (`info.input`: `http` with method, bodyType and an example body, or `mcp` with toolName,
 * inputSchema and an example), what it returns (`info.output`: json and an example), and a JSON
 * Schema (2020-12) that validates `info`, with the resource's own request and response schemas
 * in the places the official SDK puts them (`input.body`, `output.example`). Built once per
 * resource from its discovery entry (the same one /.well-known/x402.json lists). Definitions
 * (`$defs`) are hoisted to the schema's root, where their `#/$defs/...` references resolve.
 * Clients echo the 402's extensions in their PAYMENT-SIGNATURE header, so the schemas are
 * kept small: what says nothing (an integer's ±2^53 bounds, `additionalProperties: true`) and
 * descriptions (the manifest and /openapi.json have them) are left out.
 */
import type { DiscoveryEntry } from "../v2/discovery.ts";

export const BAZAAR = "bazaar";
type Json = Readonly<Record<string, unknown>>;

export interface BazaarExtension {
  readonly info: { readonly input: Json; readonly output?: Json };
  readonly schema: Json;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** `schema` without what validates nothing: descriptions, ±2^53 bounds, `additionalProperties: true`. */
const compact = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(compact);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(
        ([key, value]) =>
          key !== "description" &&
          !(key === "additionalProperties" && value === true) &&
          !((key === "minimum" || key === "maximum") && SAFE_INTEGER_BOUNDS.has(value as number)),
      )
      .map(([key, value]) => [key, compact(value)]),
  );
};

/** A subschema without its own `$schema`/`$defs` (hoisted), and those definitions, compacted. */
const split = (schema: unknown): { readonly body: Json; readonly defs: Json } => {
  if (schema === null || typeof schema !== "object") return { body: { type: "object" }, defs: {} };
  const { $schema: _dialect, $defs, ...body } = schema as Record<string, unknown>;
  return { body: compact(body) as Json, defs: compact($defs ?? {}) as Json };
};

const outputOf = (entry: DiscoveryEntry) => {
  const example = entry.example?.output;
  if (example === undefined) return { info: {}, schema: {}, defs: {} };
  const { body, defs } = split(entry.output?.schema);
  return {
    info: { output: { type: "json", example } },
    schema: {
      output: {
        type: "object",
        properties: { type: { type: "string" }, example: body },
        required: ["type"],
      },
    },
    defs,
  };
};

const httpInput = (entry: DiscoveryEntry) => {
  const method = String(entry.input.method);
  const { body, defs } = split(entry.input.body);
  return {
    info: { type: "http", method, bodyType: "json", body: entry.example?.input ?? {} },
    schema: {
      type: "object",
      properties: {
        type: { type: "string", const: "http" },
        method: { type: "string", enum: [method] },
        bodyType: { type: "string", enum: ["json"] },
        body,
      },
      required: ["type", "method", "bodyType", "body"],
      additionalProperties: false,
    },
    defs,
  };
};

const mcpInput = (entry: DiscoveryEntry) => {
  const { toolName, transport, inputSchema } = entry.input;
  const example = entry.example?.input;
  return {
    info: {
      type: "mcp",
      toolName,
      description: entry.priced.description,
      transport,
      inputSchema,
      ...(example === undefined ? {} : { example }),
    },
    schema: {
      type: "object",
      properties: {
        type: { type: "string", const: "mcp" },
        toolName: { type: "string", const: toolName },
        description: { type: "string" },
        transport: { type: "string", enum: ["streamable-http", "sse"] },
        inputSchema: { type: "object" },
        ...(example === undefined ? {} : { example: { type: "object" } }),
      },
      required: ["type", "toolName", "inputSchema"],
      additionalProperties: false,
    },
    defs: {},
  };
};

/** The bazaar extension of `entry`. */
export const bazaarExtension = (entry: DiscoveryEntry): BazaarExtension => {
  const input = entry.type === "http" ? httpInput(entry) : mcpInput(entry);
  const output = outputOf(entry);
  const defs = { ...input.defs, ...output.defs };
  return {
    info: { input: input.info, ...output.info },
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { input: input.schema, ...output.schema },
      required: ["input"],
      ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
    },
  };
};
