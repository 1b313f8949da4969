/** OpenAPI 3.1 description of the public endpoints (served at GET /openapi.json). */
import { ANSWER_ID_PATTERN, MAX_COMMENT_LENGTH } from "../core/feedback.ts";

const rateLimit = {
  type: "object",
  required: ["remaining", "resetAt", "requiresPayment", "free", "paid"],
  properties: {
    remaining: {
      type: "integer",
      minimum: 0,
      description: "queries left (free today + usable paid credits)",
    },
    resetAt: { type: "integer", description: "epoch ms of the next free-quota reset (00:00 UTC)" },
    requiresPayment: { type: "boolean" },
    free: { type: "integer", minimum: 0, description: "free questions left today" },
    paid: {
      type: "integer",
      minimum: 0,
      description: "paid questions usable today (free + paid = remaining)",
    },
  },
};
const failure = {
  type: "object",
  required: ["success", "error"],
  properties: {
    success: { const: false },
    error: { type: "string" },
    details: { type: "string" },
    code: { type: "string" },
    retryable: { type: "boolean" },
    requestId: { type: "string" },
  },
};
const voteKept = {
  type: "object",
  properties: { success: { const: true }, answerId: { type: "string" }, vote: { enum: ["up", "down"] } },
};
const json = (schema: object) => ({ content: { "application/json": { schema } } });
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((code) => [String(code), { description: `error ${code}`, ...json(failure) }]));

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Docs chat service",
    version: "1.0.0",
    description: "Paid documentation assistant: answers with citations, USDC payments on Solana.",
  },
  paths: {
    "/api/chat": {
      post: {
        summary: "Ask a question about the documentation",
        requestBody: json({
          type: "object",
          required: ["message"],
          properties: {
            message: { type: "string", minLength: 1, maxLength: 2000 },
            conversationId: { type: "string", pattern: "^[A-Za-z0-9_.:-]{1,128}$" },
            stream: {
              type: "boolean",
              description: "answer as Server-Sent Events (also: Accept: text/event-stream)",
            },
          },
        }),
        responses: {
          "200": {
            description: "answer",
            ...json({
              type: "object",
              properties: {
                success: { const: true },
                answerId: {
                  type: "string",
                  description: "id to vote on this answer (POST /api/feedback); absent if none was issued",
                },
                response: { type: "string" },
                sources: { type: "array", items: { type: "object" } },
                tokensUsed: { type: "integer" },
                rateLimit,
              },
            }),
          },
          ...errors(400, 402, 413, 415, 429, 500, 503),
        },
      },
    },
    "/api/status": {
      get: {
        summary: "Rate-limit state of the caller",
        responses: { "200": { description: "state", ...json(rateLimit) }, ...errors(503) },
      },
    },
    "/api/feedback": {
      post: {
        summary: "Vote on an answer you received (thumbs up/down, optional comment)",
        requestBody: json({
          type: "object",
          required: ["answerId", "vote"],
          properties: {
            answerId: { type: "string", pattern: ANSWER_ID_PATTERN.source },
            vote: { enum: ["up", "down"] },
            comment: { type: "string", maxLength: MAX_COMMENT_LENGTH },
          },
        }),
        responses: {
          "200": {
            description: "vote kept (a later vote on the same answer replaces it)",
            ...json(voteKept),
          },
          ...errors(400, 404, 413, 415, 503),
        },
      },
    },
    "/api/payment/info": {
      get: {
        summary: "How to pay",
        responses: {
          "200": {
            description: "payment info",
            ...json({
              type: "object",
              required: ["amount", "token", "network", "recipient", "usdcMint", "instructions"],
              properties: {
                amount: { type: "number" },
                token: { const: "USDC" },
                network: { type: "string" },
                recipient: { type: "string" },
                usdcMint: { type: "string" },
                instructions: { type: "array", items: { type: "string" } },
                memo: { type: "string" },
              },
            }),
          },
        },
      },
    },
    "/api/payment": {
      post: {
        summary: "Buy queries with a confirmed USDC transfer",
        requestBody: json({
          type: "object",
          required: ["signature", "amount", "token"],
          properties: {
            signature: { type: "string" },
            amount: { type: "number", minimum: 0.01, maximum: 1, multipleOf: 0.001 },
            token: { const: "USDC" },
          },
        }),
        responses: {
          "200": {
            description: "queries granted",
            ...json({
              type: "object",
              properties: {
                success: { const: true },
                message: { type: "string" },
                signature: { type: "string" },
                queriesGranted: { type: "integer" },
                rateLimit,
              },
            }),
          },
          ...errors(400, 413, 415, 500, 503),
        },
      },
    },
  },
} as const;
