/**
 * CORS for the configured origins only (no wildcard). Preflights from allowed origins get 204
 * with the allowed method/headers; from other origins 403 without CORS headers. The admin
 * routes (/admin, /api/admin/...) are never shared with another origin, allowed or not.
 */

export interface CorsPolicy {
  /** The answer to a preflight (or any OPTIONS when no origin is allowed); undefined for other requests. */
  readonly preflight: (method: string, request: Request, path: string) => Response | undefined;
  /** Headers to add to the response of a non-preflight request; undefined when there are none. */
  readonly responseHeaders: (request: Request, path: string) => Readonly<Record<string, string>> | undefined;
}

/** The owner's console and its API: same-origin only. */
export const isAdminPath = (path: string): boolean =>
  path === "/admin" || path.startsWith("/admin/") || path === "/api/admin" || path.startsWith("/api/admin/");

// The x402 headers: browsers may send the payment and read its receipt.
// Both payment dialects: the spec's (X-Payment-*) and x402 v2's (PAYMENT-*); and the wallet's
// session (the widget's) or sign-in proof.
const ALLOW_HEADERS =
  "Content-Type, Accept, X-Payment-Authorization, PAYMENT-SIGNATURE, X-Wallet-Session, SIGN-IN-WITH-X";
const EXPOSE_HEADERS = "X-Request-Id, Retry-After, X-Payment-Receipt, PAYMENT-REQUIRED, PAYMENT-RESPONSE";
const VARY_ONLY = { Vary: "Origin" };

export const corsPolicy = (allowedOrigins: ReadonlyArray<string>, maxAgeSeconds = 600): CorsPolicy => {
  // With no origin allowed there is nothing to look up: no header is ever read (cheaper on Bun).
  if (allowedOrigins.length === 0)
    return {
      preflight: (method) => (method === "OPTIONS" ? new Response(null, { status: 403 }) : undefined),
      responseHeaders: () => undefined,
    };
  const allowed = new Set(allowedOrigins);
  return {
    preflight: (method, request, path) => {
      if (method !== "OPTIONS" || !request.headers.has("access-control-request-method")) return undefined;
      const origin = request.headers.get("origin");
      if (origin === null || !allowed.has(origin) || isAdminPath(path))
        return new Response(null, { status: 403, headers: VARY_ONLY });
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
          "Access-Control-Allow-Headers": ALLOW_HEADERS,
          "Access-Control-Max-Age": String(maxAgeSeconds),
          Vary: "Origin",
        },
      });
    },
    responseHeaders: (request, path) => {
      const origin = request.headers.get("origin");
      if (origin === null || !allowed.has(origin) || isAdminPath(path)) return VARY_ONLY;
      return {
        Vary: "Origin",
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Expose-Headers": EXPOSE_HEADERS,
      };
    },
  };
};
