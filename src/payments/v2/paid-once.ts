/**
 * A payment named by a payment identifier is paid once, whichever instance a resend reaches
 * (core/payments/payment-identifier.ts): before any verification the id is looked up in the
 * shared store; the same payload for the same request gets the first response back (nothing
 * verified, nothing charged), another payload or request under that id is 409, a payload
 * without an id when the service requires one is 400. After a settled payment (a successful
 * PAYMENT-RESPONSE) the response is kept: its status, headers (no cookies) and body, the body
 * only when it is JSON of at most MAX_KEPT_BODY_BYTES (a streamed or larger answer is kept as
 * its receipt: the payment's PAYMENT-RESPONSE and a note that its result was not kept).
 */
import { decodePaymentResponseHeader } from "@x402/core/http";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { keptBody, type PaidResult, resendOf } from "../../../core/payments/payment-identifier.ts";
import { PaidResults } from "../../../core/ports/paid-results.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import type { Logger } from "../../observability/log.ts";
import { sha256Hex as hex } from "../sha256-hex.ts";
import { type NamedPayment, paymentIdOfHeader } from "./payment-identifier-wire.ts";
import { PAYMENT_RESPONSE_HEADER, PAYMENT_SIGNATURE_HEADER } from "./wire.ts";

export interface PaidOnceDeps {
  /** X402_PAYMENT_ID_REQUIRED: a v2 payload without an id is refused (400). */
  readonly required: boolean;
  readonly run: <A, E>(effect: Effect.Effect<A, E, PaidResults>) => Promise<Outcome<A, E>>;
  readonly logger: Logger;
}

/** A refusal of the extension's own, in the chat's words and the x402 error's at once. */
export interface IdRefusal {
  readonly status: 400 | 409 | 503;
  readonly code: "PAYMENT_ID_REQUIRED" | "PAYMENT_ID_INVALID" | "PAYMENT_ID_CONFLICT" | "STORE_UNAVAILABLE";
  readonly message: string;
}

export type Gate =
  | { readonly kind: "pass" }
  | { readonly kind: "refuse"; readonly refusal: IdRefusal }
  | { readonly kind: "replay"; readonly result: PaidResult }
  | { readonly kind: "named"; readonly key: string; readonly digest: string };

const REFUSALS = {
  required: {
    status: 400,
    code: "PAYMENT_ID_REQUIRED",
    message:
      "This service requires a payment identifier: add extensions['payment-identifier'].info.id (16-128 characters: letters, digits, - and _) to the payment payload",
  },
  invalid: {
    status: 400,
    code: "PAYMENT_ID_INVALID",
    message: "The payment identifier must be 16-128 characters: letters, digits, - and _",
  },
  conflict: {
    status: 409,
    code: "PAYMENT_ID_CONFLICT",
    message:
      "This payment identifier was used with another payment or another request: send the first one unchanged to get its result, or pay with a new identifier",
  },
  // The code of every other answer given while the store is down (a failover), so a client
  // retries on one code whatever the route and dialect.
  unavailable: {
    status: 503,
    code: "STORE_UNAVAILABLE",
    message: "Payment identifiers cannot be checked right now; nothing was charged. Try again shortly.",
  },
} as const satisfies Record<string, IdRefusal>;

/**
 * What a payload named as `named` may do on the request `scope` (method and path) whose
 * payment is `parts` (the payload and what it buys): pass (no id), be refused, replay the
 * first result, or go on and have its result kept under `key`.
 */
export const gatePayment = async (
  deps: PaidOnceDeps,
  named: NamedPayment,
  scope: string,
  parts: ReadonlyArray<string>,
): Promise<Gate> => {
  if (named.kind === "invalid") return { kind: "refuse", refusal: REFUSALS.invalid };
  if (named.kind === "unnamed")
    return deps.required ? { kind: "refuse", refusal: REFUSALS.required } : { kind: "pass" };
  // Scoped by route: one id on two routes names two payments (the spec's advice).
  const key = `${(await hex(scope)).slice(0, 16)}:${named.id}`;
  const digest = await hex(JSON.stringify([scope, ...parts]));
  const looked = await lookUp(deps, key, digest);
  if (!looked.ok) return { kind: "refuse", refusal: REFUSALS.unavailable };
  const resend = looked.value;
  if (resend.kind === "conflict") return { kind: "refuse", refusal: REFUSALS.conflict };
  if (resend.kind === "replay") return { kind: "replay", result: resend.result };
  return { kind: "named", key, digest };
};

const lookUp = (deps: PaidOnceDeps, key: string, digest: string) =>
  deps.run(
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis;
      const results = yield* PaidResults;
      const kept = yield* results.find(key, now);
      return resendOf(kept, digest, now);
    }),
  );

/** Keeps a settled payment's result (the first stays); a store that fails only loses the convenience. */
export const keepResult = async (
  deps: PaidOnceDeps,
  key: string,
  result: Omit<PaidResult, "keptAt">,
): Promise<void> => {
  const kept = await deps.run(
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis;
      const results = yield* PaidResults;
      return yield* results.keep(key, { ...result, keptAt: now }, now);
    }),
  );
  if (!kept.ok)
    deps.logger.warn("paid result not kept: a resend will be refused as already used", {
      reason: kept.error.reason,
    });
};

/** A refusal as a JSON response, readable by the chat's clients and the x402 error's alike. */
export const refusalResponse = ({ status, code, message }: IdRefusal) =>
  Response.json(
    {
      success: false,
      error: message,
      code,
      Message: message,
      Code: code,
      Details: { retryable: status === 503 },
    },
    {
      status,
      headers:
        status === 503
          ? { "Retry-After": "5", "Cache-Control": "no-store" }
          : { "Cache-Control": "no-store" },
    },
  );

/** Says a resend got the kept result, not a new payment. */
export const REPLAYED_HEADER = "Payment-Identifier-Replayed";

const NOT_KEPT = {
  success: true,
  code: "PAID_RESULT_NOT_KEPT",
  message:
    "This payment settled and was served; its result was streamed or too large to keep. PAYMENT-RESPONSE names the payment; what it bought stays with the paying wallet.",
};

/** The kept result as the response a resend gets. */
export const replayResponse = (result: PaidResult) =>
  result.body === undefined
    ? Response.json(NOT_KEPT, {
        status: result.status,
        headers: { ...withoutBodyType(result.headers), [REPLAYED_HEADER]: "true" },
      })
    : new Response(result.body, {
        status: result.status,
        headers: { ...result.headers, [REPLAYED_HEADER]: "true" },
      });

const withoutBodyType = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name !== "content-type"));

/** Not repeated to a resend: per response, or a credential (a cookie). */
const NOT_KEPT_HEADERS = new Set([
  "set-cookie",
  "date",
  "content-length",
  "x-request-id",
  "transfer-encoding",
]);

/** Whether `response` carries a successful settlement. */
export const settledIn = (response: Response): boolean => {
  const header = response.headers.get(PAYMENT_RESPONSE_HEADER);
  if (header === null) return false;
  try {
    return decodePaymentResponseHeader(header).success === true;
  } catch {
    return false;
  }
};

/** What is kept of a settled response: its status, headers and (JSON, small enough) body. */
export const resultOf = async (response: Response, digest: string): Promise<Omit<PaidResult, "keptAt">> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!NOT_KEPT_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  });
  const json = /^application\/json\b/i.test(response.headers.get("content-type") ?? "");
  return {
    digest,
    status: response.status,
    headers,
    body: json ? keptBody(await response.clone().text()) : undefined,
  };
};

/**
 * An HTTP request paid with x402 v2 (PAYMENT-SIGNATURE), paid once: `handle` runs only for a
 * payload whose id has no kept result; its settled response is kept. `body` reads the request's
 * body as text (what the payment buys, with the method and the URL).
 */
export const paidOnce = async (
  request: Request,
  body: () => Promise<string>,
  deps: PaidOnceDeps,
  handle: () => Promise<Response>,
): Promise<Response> => {
  const header = request.headers.get(PAYMENT_SIGNATURE_HEADER);
  if (header === null) return handle();
  const url = new URL(request.url);
  const gate = await gatePayment(deps, paymentIdOfHeader(header), `${request.method} ${url.pathname}`, [
    url.search,
    header.trim(),
    await body(),
  ]);
  if (gate.kind === "refuse") return refusalResponse(gate.refusal);
  if (gate.kind === "replay") return replayResponse(gate.result);
  const response = await handle();
  if (gate.kind === "pass") return response;
  if (settledIn(response) && response.status < 500) {
    await keepResult(deps, gate.key, await resultOf(response, gate.digest));
    return response;
  }
  // A resend that raced the first and lost (already used, in progress): the first may be kept by now.
  const again = await lookUp(deps, gate.key, gate.digest);
  return again.ok && again.value.kind === "replay" ? replayResponse(again.value.result) : response;
};
