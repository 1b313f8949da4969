/**
 * fast-check arbitraries for HTTP requests a hostile or broken client might send to any of
 * the service's endpoints: malformed JSON, huge and deeply nested bodies, wrong types, unicode
 * and control characters, prototype keys, odd content types, spoofed forwarding headers,
 * header values made to look like injected headers, and the x402 payment headers.
 */
import fc from "fast-check";

export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** The ADMIN_TOKEN the fuzzed service runs with, so the owner's API is fuzzed signed in too. */
export const FUZZ_ADMIN_TOKEN = "fuzz-admin-token-0123456789";

export const ENDPOINTS = [
  "/api/chat",
  "/api/status",
  "/api/payment/info",
  "/api/payment",
  "/api/feedback",
  "/api/solana-rpc",
  "/api/demo-wallet",
  "/healthz",
  "/readyz",
  "/metrics",
  "/openapi.json",
  "/",
  "/widget.js",
  "/admin",
  "/admin/login",
  "/admin/logout",
  "/api/admin/insights",
  "/api/admin/export",
] as const;

const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty"];
const SIGNATURE_LIKE =
  "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";

/** Text that breaks naive handling: any unicode, lone surrogates, control characters, NULs. */
const nastyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({
    unit: fc.constantFrom("\u0000", "\u0007", "\u001b", "\u202e", "\ud800", "\uffff", "\n", "\r", "🙂", "é"),
    maxLength: 50,
  }),
  fc.constantFrom("", " ", "\t\n", "null", "undefined", "NaN", "0x10", "1e309", "-0", SIGNATURE_LIKE),
);

/** Any JSON value, with prototype keys among the object keys. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    nastyText,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), nastyText), tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** Bodies shaped like ours with wrong or hostile field values. */
const nearlyValid = fc.oneof(
  fc.record(
    {
      message: fc.oneof(nastyText, jsonValue),
      conversationId: fc.oneof(nastyText, jsonValue),
      stream: jsonValue,
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      signature: fc.oneof(nastyText, jsonValue, fc.constant(SIGNATURE_LIKE)),
      amount: fc.oneof(fc.double(), fc.constantFrom(0.01, 1, 1.000001, -1, 1e308), nastyText),
      token: fc.oneof(fc.constantFrom("USDC", "SOL", "usdc"), nastyText),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    { answerId: nastyText, vote: fc.oneof(fc.constantFrom("up", "down"), jsonValue) },
    { requiredKeys: [] },
  ),
  fc.record(
    { jsonrpc: fc.constant("2.0"), id: jsonValue, method: nastyText, params: jsonValue },
    { requiredKeys: [] },
  ),
);

const body = fc.oneof(
  nearlyValid.map((value) => JSON.stringify(value)),
  jsonValue.map((value) => JSON.stringify(value)),
  // Malformed JSON: a valid document cut short, or with junk after it.
  nearlyValid.chain((value) => {
    const text = JSON.stringify(value);
    return fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut));
  }),
  nearlyValid.map((value) => `${JSON.stringify(value)}}}garbage`),
  // Prototype pollution attempts, written by hand (JSON.stringify drops a real __proto__).
  fc.constantFrom(
    '{"__proto__":{"polluted":true},"message":"hi"}',
    '{"constructor":{"prototype":{"polluted":true}},"signature":"x","amount":0.01,"token":"USDC"}',
    '{"message":{"__proto__":null}}',
  ),
  // Deeply nested and huge.
  fc.integer({ min: 100, max: 100_000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc.integer({ min: 100, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
  fc
    .integer({ min: 16 * 1024, max: 2 * 1024 * 1024 })
    .map((size) => JSON.stringify({ message: "x".repeat(size) })),
  fc.string({ unit: "binary", maxLength: 500 }),
);

const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json, text/html",
  "",
);

const ipLike = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.constantFrom(
    "unknown",
    "127.0.0.1, 10.0.0.1",
    "::ffff:127.0.0.1",
    "1.2.3.4:80",
    "[::1]:443",
    "999.1.1.1",
  ),
  nastyText,
);

/** Header values that carry what would be a second header if a server echoed them raw. */
const injected = fc.constantFrom(
  "abc\u000bSet-Cookie: pwned=1",
  "id%0d%0aSet-Cookie:%20pwned=1",
  "a".repeat(8000),
  "🙂-request-id",
);

const headers = fc.record(
  {
    "Content-Type": contentType,
    Accept: fc.constantFrom("application/json", "text/event-stream", "*/*", "text/html"),
    Origin: fc.oneof(fc.constantFrom("https://docs.example.com", "null", "https://evil.example"), nastyText),
    "X-Forwarded-For": fc.array(ipLike, { maxLength: 4 }).map((list) => list.join(", ")),
    "X-Real-IP": ipLike,
    "X-Request-Id": fc.oneof(injected, nastyText),
    "X-Payment-Authorization": fc.oneof(nastyText, fc.base64String({ maxLength: 200 })),
    Authorization: fc.oneof(
      fc.constant(`Bearer ${FUZZ_ADMIN_TOKEN}`),
      fc.constant("Bearer wrong"),
      nastyText,
    ),
    Cookie: fc.oneof(fc.constant("admin=x"), nastyText),
    "PAYMENT-SIGNATURE": fc.oneof(nastyText, fc.base64String({ maxLength: 200 })),
    "Accept-Encoding": fc.constantFrom("gzip", "br", "identity", "*;q=0"),
  },
  { requiredKeys: [] },
);

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  method: fc.constantFrom("GET", "POST", "POST", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH"),
  path: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ENDPOINTS) },
    { weight: 1, arbitrary: fc.constantFrom(...ENDPOINTS).map((path) => `${path}?q=%ZZ&__proto__=1`) },
    { weight: 1, arbitrary: fc.webPath() },
    {
      weight: 1,
      arbitrary: fc.constantFrom("/api/../api/status", "/api/%2e%2e/status", "//api/status", "/api/chat/"),
    },
  ),
  headers,
  body: fc.option(body, { nil: undefined, freq: 4 }),
});

/** Header values fetch refuses (it will not send CR, LF or NUL) are left out. */
export const sendable = (request: FuzzRequest): FuzzRequest => ({
  ...request,
  headers: Object.fromEntries(
    Object.entries(request.headers).filter(
      ([, value]) => !/[\r\n\0]/.test(value) && [...value].every((c) => c.charCodeAt(0) <= 255),
    ),
  ),
});
