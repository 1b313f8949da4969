/** POST /api/chat as the discovery manifest lists it: the request and response Schemas the route decodes and answers with. */
import * as Schema from "effect/Schema";
import { CHAT_BINDING, chatResource } from "../payments/priced-resources.ts";
import type { DiscoveryEntry } from "../payments/v2/discovery.ts";
import { ChatRequest } from "./schemas/requests.ts";
import { ChatResponse } from "./schemas/responses.ts";

/** A JSON Schema with its definitions inline, as a manifest carries it. */
const jsonSchema = (schema: Schema.Top): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(schema);
  const definitions = Object.keys(document.definitions).length > 0 ? { $defs: document.definitions } : {};
  return { ...(document.schema as Record<string, unknown>), ...definitions };
};

/** An answer as /api/chat gives it (valid against ChatResponse), for catalogues (bazaar). */
const CHAT_EXAMPLE = {
  success: true,
  answerId: "a_7Hq2",
  response: "Node 20 or later [1].",
  sources: [
    {
      number: 1,
      id: "install.md#0",
      title: "Installation",
      url: "https://docs.example.com/install#requirements",
      source: "install.md",
      heading: "Installation > Requirements",
      score: 0.82,
      snippet: "Node 20 or later is required.",
    },
  ],
  tokensUsed: 120,
  declined: false,
  rateLimit: { remaining: 9, resetAt: 1767225600000, requiresPayment: false, free: 0, paid: 9 },
};

export const chatDiscoveryEntry = (path: string, unitsPerQuery: bigint): DiscoveryEntry => ({
  priced: chatResource(unitsPerQuery),
  type: "http",
  path,
  input: { method: CHAT_BINDING.method, bodyType: "json", body: jsonSchema(ChatRequest) },
  output: { mimeType: "application/json", schema: jsonSchema(ChatResponse) },
  example: { input: { message: "Which Node version do I need?" }, output: CHAT_EXAMPLE },
});
