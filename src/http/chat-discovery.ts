/** POST /api/chat as the discovery manifest lists it: the request and response Schemas the route decodes and answers with. */
import { Schema } from "effect";
import { CHAT_RESOURCE } from "../payments/priced-resources.ts";
import type { DiscoveryEntry } from "../payments/v2/discovery.ts";
import { ChatRequest } from "./schemas/requests.ts";
import { ChatResponse } from "./schemas/responses.ts";

/** A JSON Schema with its definitions inline, as a manifest carries it. */
const jsonSchema = (schema: Schema.Top): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(schema);
  const definitions = Object.keys(document.definitions).length > 0 ? { $defs: document.definitions } : {};
  return { ...(document.schema as Record<string, unknown>), ...definitions };
};

export const chatDiscoveryEntry = (path: string): DiscoveryEntry => ({
  priced: CHAT_RESOURCE,
  type: "http",
  path,
  input: { method: CHAT_RESOURCE.binding.method, bodyType: "json", body: jsonSchema(ChatRequest) },
  output: { mimeType: "application/json", schema: jsonSchema(ChatResponse) },
});
