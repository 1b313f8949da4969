/**
 * OpenAPI 3.1 description of the service (served at GET /openapi.json), generated from the
 * request and response Schemas the routes decode and the tests check responses with, so it
 * cannot drift. Schemas land in `components.schemas` under their identifiers.
 */
import * as Schema from "effect/Schema";
import { FeedbackRequest } from "../../core/answers/feedback.ts";
import { ExportQuery, ExportResponse, InsightsQuery, InsightsResponse } from "./schemas/admin.ts";
import { ChatRequest, PaymentRequest, SignInRequest } from "./schemas/requests.ts";
import {
  ChatPaymentRefused,
  ChatPaymentRequired,
  ChatResponse,
  ErrorBody,
  FeedbackKept,
  Health,
  PaymentInfo,
  PaymentResponse,
  Readiness,
  SignedIn,
  SignedOut,
  SignInChallengeResponse,
  StatusResponse,
} from "./schemas/responses.ts";

const components: Record<string, unknown> = {};

/** A `$ref` to the schema's component, registering it (and what it refers to) on first use. */
const ref = (schema: Schema.Top) => {
  const document = Schema.toJsonSchemaDocument(schema);
  // JSON Schema documents refer to `#/$defs/X`; in OpenAPI the definitions are components.
  const retarget = (value: unknown) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
  for (const [name, definition] of Object.entries(document.definitions))
    components[name] = retarget(definition);
  return retarget(document.schema);
};

const json = (schema: Schema.Top) => ({ content: { "application/json": { schema: ref(schema) } } });
/** The widget's session after a payment or a sign-in: the wallet's paid questions are spent first. */
const SESSION_PARAMETER = {
  name: "X-Wallet-Session",
  in: "header",
  required: false,
  description: "a wallet session token (POST /api/payment or POST /api/session)",
  schema: { type: "string" },
};
const SIGN_IN_PARAMETER = {
  name: "SIGN-IN-WITH-X",
  in: "header",
  required: false,
  description:
    "x402 sign-in-with-x: base64 JSON of a signed challenge from a 402; a wallet with paid questions is served",
  schema: { type: "string" },
};

const ok = (description: string, schema: Schema.Top) => ({ "200": { description, ...json(schema) } });
const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [String(code), { description: `error ${code}`, ...json(ErrorBody) }]),
  );

/** The query parameters of a Struct of optional strings, from its JSON Schema. */
const queryParameters = (schema: Schema.Top) => {
  const { properties = {} } = Schema.toJsonSchemaDocument(schema).schema as {
    properties?: Record<string, { description?: string }>;
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: false,
    description: property.description,
    schema: property,
  }));
};

const ADMIN_NOTE =
  "Only with ADMIN_TOKEN configured (404 otherwise). A bearer token or the session cookie of the /admin login; 429 after five wrong tokens from one client (15 min). Never in CORS.";
const adminSecurity = [{ adminToken: [] }, { adminSession: [] }];
const html = (description: string) => ({
  description,
  content: { "text/html": { schema: { type: "string" } } },
});

const adminPaths = {
  "/api/admin/insights": {
    get: {
      summary: "Owner insights of a range of UTC days: questions, gaps, votes, cited pages, revenue",
      description: ADMIN_NOTE,
      security: adminSecurity,
      parameters: queryParameters(InsightsQuery),
      responses: { ...ok("report", InsightsResponse), ...errors(400, 401, 404, 429, 503) },
    },
  },
  "/api/admin/export": {
    get: {
      summary: "Every insight event of a range, as CSV (one row per event) or JSON",
      description: ADMIN_NOTE,
      security: adminSecurity,
      parameters: queryParameters(ExportQuery),
      responses: {
        "200": {
          description: "the events, as an attachment",
          content: {
            "text/csv": { schema: { type: "string" } },
            "application/json": { schema: ref(ExportResponse) },
          },
        },
        ...errors(400, 401, 404, 429, 503),
      },
    },
  },
  "/admin": {
    get: {
      summary: "The owner's console, or its login form (404 without ADMIN_TOKEN)",
      responses: {
        "200": html("console or login form"),
        "401": html("wrong session"),
        "429": html("locked out"),
      },
    },
  },
  "/admin/login": {
    post: {
      summary: "Sign in: sets the session cookie (HttpOnly, SameSite=Strict, 12 h) and redirects to /admin",
      requestBody: {
        required: true,
        content: {
          "application/x-www-form-urlencoded": {
            schema: { type: "object", required: ["token"], properties: { token: { type: "string" } } },
          },
        },
      },
      responses: {
        "303": { description: "signed in" },
        "401": html("wrong token"),
        "429": html("locked out"),
      },
    },
  },
  "/admin/logout": {
    post: {
      summary: "Sign out (clears the session cookie)",
      responses: { "303": { description: "signed out" } },
    },
  },
  "/admin/console.js": {
    get: {
      summary: "The console's script",
      responses: {
        "200": { description: "bundle", content: { "text/javascript": { schema: { type: "string" } } } },
      },
    },
  },
};

const paths = {
  "/api/chat": {
    post: {
      summary: "Ask a question about the documentation",
      description:
        "JSON answer, or Server-Sent Events (`sources`, `delta`..., `done` or `error`) with `stream: true` or `Accept: text/event-stream`; a second `sources` event before any `delta` replaces the first when the answer lists only the passages it rests on (its `[n]` number that list, as `sources` in the JSON answer). 402 when the quota is exhausted: the body is an HTTP 402 payment request (snake_case fields, docs/x402.md) plus `rateLimit` and `payment`. Repeat the question with `X-Payment-Authorization` to buy the queries the transfer paid for (0.001 USDC each) and be answered in the same call. When the service has an x402 v2 fee payer, the 402 also carries `PAYMENT-REQUIRED` (x402 v2, scheme exact on Solana) and the question may be repeated with `PAYMENT-SIGNATURE` instead (README: Pay with any x402 client).",
      parameters: [
        {
          name: "X-Payment-Authorization",
          in: "header",
          required: false,
          description: "base64 of the signed payment authorization JSON (docs/x402.md)",
          schema: { type: "string" },
        },
        {
          name: "PAYMENT-SIGNATURE",
          in: "header",
          required: false,
          description:
            "x402 v2: base64 of the payment payload with the partially signed transaction (docs/x402.md)",
          schema: { type: "string" },
        },
        SESSION_PARAMETER,
        SIGN_IN_PARAMETER,
      ],
      requestBody: { required: true, ...json(ChatRequest) },
      responses: {
        "200": {
          description: "answer",
          headers: {
            "X-Payment-Receipt": {
              description: "with X-Payment-Authorization: base64 JSON naming the transaction that paid",
              schema: { type: "string" },
            },
            "PAYMENT-RESPONSE": {
              description:
                "with PAYMENT-SIGNATURE: base64 JSON {success, transaction, network, payer} of the settlement",
              schema: { type: "string" },
            },
          },
          ...json(ChatResponse),
        },
        "402": {
          description:
            "quota exhausted, or the payment request expired (with x402 v2: a PAYMENT-REQUIRED header too), or an x402 v2 settlement failed (nothing credited)",
          ...json(ChatPaymentRequired),
        },
        "403": { description: "payment refused (PAYMENT_VERIFICATION_FAILED)", ...json(ChatPaymentRefused) },
        ...errors(400, 413, 415, 429, 500, 503),
      },
    },
  },
  "/api/status": {
    get: {
      summary: "Rate-limit state of the caller (never 402)",
      parameters: [SESSION_PARAMETER],
      responses: { ...ok("state", StatusResponse), ...errors(401, 429, 503) },
    },
  },
  "/api/feedback": {
    post: {
      summary: "Vote on an answer you received (thumbs up/down, optional comment)",
      requestBody: { required: true, ...json(FeedbackRequest.annotate({ identifier: "FeedbackRequest" })) },
      responses: {
        ...ok("vote kept (a later vote on the same answer replaces it)", FeedbackKept),
        ...errors(400, 404, 413, 415, 429, 503),
      },
    },
  },
  "/api/session/challenge": {
    get: {
      summary:
        "A fresh Sign-In With Solana challenge (x402 sign-in-with-x): sign it to use a wallet's paid questions",
      responses: {
        ...ok("challenge (its nonce works once, for 5 minutes)", SignInChallengeResponse),
        ...errors(429, 503),
      },
    },
  },
  "/api/session": {
    post: {
      summary: "Sign in with a wallet: a session token for its paid questions",
      requestBody: { required: true, ...json(SignInRequest) },
      responses: {
        ...ok("signed in", SignedIn),
        "401": {
          description:
            "refused: wrong domain or URI, old or future issuedAt, expired, used nonce, bad signature (code names which)",
          ...json(ErrorBody),
        },
        ...errors(400, 413, 415, 429, 503),
      },
    },
  },
  "/api/session/sign-out": {
    post: {
      summary: "Revoke the session of X-Wallet-Session",
      parameters: [SESSION_PARAMETER],
      responses: { ...ok("signed out", SignedOut), ...errors(429, 503) },
    },
  },
  "/api/payment/info": {
    get: {
      summary: "How to pay, with the caller's memo reference",
      responses: { ...ok("payment info", PaymentInfo), ...errors(429, 503) },
    },
  },
  "/api/payment": {
    post: {
      summary: "Buy queries with a confirmed USDC transfer",
      requestBody: { required: true, ...json(PaymentRequest) },
      responses: { ...ok("queries granted", PaymentResponse), ...errors(400, 413, 415, 429, 500, 503) },
    },
  },
  "/api/solana-rpc": {
    post: {
      summary: "Relay of the three Solana JSON-RPC calls the widget makes to pay",
      description:
        "getLatestBlockhash, getSignaturesForAddress (one reference, at most 10 signatures) and sendTransaction (only a USDC transfer to this service's wallet), relayed to the service's own RPC so the page needs no RPC URL of its own. Other methods are refused (-32601), other params too (-32602); each client has a budget of calls per minute, and so has the service (429 with Retry-After).",
      requestBody: {
        required: true,
        content: { "application/json": { schema: { type: "object", required: ["method"] } } },
      },
      responses: {
        "200": { description: "the RPC's JSON-RPC reply", content: { "application/json": {} } },
        "400": {
          description:
            "JSON-RPC error: method not relayed, bad params, a transaction that does not pay this service",
          content: { "application/json": {} },
        },
        "502": { description: "JSON-RPC error: the RPC is unreachable", content: { "application/json": {} } },
        ...errors(413, 415, 429),
      },
    },
  },
  "/api/demo-wallet": {
    get: {
      summary: "What the demo faucet gives (local chain only; 404 on a configured chain)",
      responses: { "200": { description: "faucet amounts", content: { "application/json": {} } } },
    },
    post: {
      summary: "Fund a demo wallet with test SOL and USDC (local chain only)",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: { type: "object", required: ["address"], properties: { address: { type: "string" } } },
          },
        },
      },
      responses: {
        "200": { description: "funded", content: { "application/json": {} } },
        ...errors(400, 413, 415, 429),
      },
    },
  },
  "/": {
    get: {
      summary: "Demo documentation page with the widget embedded",
      responses: { "200": { description: "page", content: { "text/html": { schema: { type: "string" } } } } },
    },
  },
  "/widget.js": {
    get: {
      summary: 'The chat widget: `<script src=".../widget.js" defer></script>` (see docs/widget.md)',
      responses: {
        "200": { description: "bundle", content: { "text/javascript": { schema: { type: "string" } } } },
      },
    },
  },
  "/widget-pay.js": {
    get: {
      summary: "The widget's payment code, loaded on demand when a visitor pays",
      responses: {
        "200": { description: "bundle", content: { "text/javascript": { schema: { type: "string" } } } },
      },
    },
  },
  "/mcp": {
    post: {
      summary:
        "The MCP endpoint (Streamable HTTP, stateless, JSON): tools search_docs, read_page and ask_docs (docs/mcp.md)",
      description:
        'JSON-RPC 2.0 over HTTP as the Model Context Protocol defines it. ask_docs is paid over x402 (the MCP transport): a PaymentPayload in params._meta["x402/payment"].',
      responses: {
        "200": { description: "a JSON-RPC response", content: { "application/json": {} } },
      },
    },
  },
  "/llms.txt": {
    get: {
      summary: "The docs as llms.txt: title, summary, a section per folder, a described link per page",
      description:
        "Generated from the index; a finished ingest shows at the next request. ETag: the index version.",
      responses: {
        "200": { description: "llms.txt", content: { "text/plain": { schema: { type: "string" } } } },
        ...errors(503),
      },
    },
  },
  "/llms-full.txt": {
    get: {
      summary: "The docs as llms-full.txt: every page's text under the sections of /llms.txt",
      responses: {
        "200": { description: "llms-full.txt", content: { "text/plain": { schema: { type: "string" } } } },
        ...errors(503),
      },
    },
  },
  "/.well-known/x402.json": {
    get: {
      summary:
        "The x402 discovery manifest: the paid routes and MCP tools, their prices and how to call them",
      description:
        "x402's well-known-discovery extension, generated from the same priced resources as the live 402s (advisory: the live 402 is authoritative). No items while x402 v2 is not offered.",
      responses: {
        "200": { description: "manifest", content: { "application/json": {} } },
        ...errors(503),
      },
    },
  },
  "/healthz": { get: { summary: "Liveness", responses: ok("alive", Health) } },
  "/readyz": {
    get: {
      summary: "Readiness: store, chain RPC and index (a probe at most every 5 s, shared by all callers)",
      description:
        "Not ready: 503 with each check ok/unavailable. The problem texts (hosts, collections), the docs sync's last record and the x402 fee payer only with Authorization: Bearer <METRICS_TOKEN>. Counted by the per-client protection limit.",
      responses: { ...ok("ready", Readiness), "503": { description: "not ready", ...json(Readiness) } },
    },
  },
  "/metrics": {
    get: {
      summary: "Prometheus metrics (only with METRICS_TOKEN set, and sent as a bearer token)",
      responses: {
        "200": { description: "metrics", content: { "text/plain": { schema: { type: "string" } } } },
        "401": { description: "no or a wrong METRICS_TOKEN", content: { "application/json": {} } },
        "429": { description: "locked out after wrong tokens", content: { "application/json": {} } },
      },
    },
  },
};

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Docs chat service",
    version: "1.0.0",
    description: "Paid documentation assistant: answers with citations, USDC payments on Solana.",
  },
  servers: [{ url: "/", description: "this service" }],
  paths: { ...paths, ...adminPaths },
  components: {
    schemas: components,
    securitySchemes: {
      adminToken: { type: "http", scheme: "bearer", description: "ADMIN_TOKEN" },
      adminSession: {
        type: "apiKey",
        in: "cookie",
        name: "docs_chat_admin",
        description: "set by POST /admin/login; named __Host-docs_chat_admin over https",
      },
    },
  },
};
