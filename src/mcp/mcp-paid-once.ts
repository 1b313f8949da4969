/**
 * A priced tool call paid with an x402 payment identifier is paid once (src/payments/v2/paid-once.ts
 * for HTTP): the same PaymentPayload with the same tool and arguments gets the first result back,
 * on any instance; another payload or call under the id is refused (the HTTP 409), a payload
 * without an id when the service requires one too (the HTTP 400). The result is kept as JSON of
 * at most MAX_KEPT_BODY_BYTES; a larger one is kept as its settlement only.
 */

import type { CallToolResult as ToolResult } from "@modelcontextprotocol/sdk/types.js";
import { keptBody, type PaidResult } from "../../core/payments/payment-identifier.ts";
import { runOutcome } from "../hono-kit/run-effect.ts";
import type { Logger } from "../observability/log.ts";
import { gatePayment, keepResult, type PaidOnceDeps } from "../payments/v2/paid-once.ts";
import { paymentIdOf } from "../payments/v2/payment-identifier-wire.ts";
import { errorResult, type McpPaymentDeps, PAYMENT_RESPONSE_META } from "./mcp-payment.ts";

const settlementOf = (result: ToolResult): unknown => result._meta?.[PAYMENT_RESPONSE_META];

const settled = (result: ToolResult) => {
  const settlement = settlementOf(result);
  return (
    typeof settlement === "object" &&
    settlement !== null &&
    (settlement as { success?: unknown }).success === true
  );
};

/** The kept result as a resend gets it. */
const replayOf = (result: PaidResult): ToolResult => {
  if (result.body !== undefined) return JSON.parse(result.body) as ToolResult;
  const settlement: unknown = JSON.parse(result.headers.settlement ?? "null");
  return {
    content: [
      {
        type: "text",
        text: "This payment settled and the call was served; its result was too large to keep. What it bought stays with the paying wallet.",
      },
    ],
    _meta: { [PAYMENT_RESPONSE_META]: settlement },
  };
};

/** Runs `call` (which buys with `payload`) once per payment identifier. */
export const paidToolOnce = async (
  deps: McpPaymentDeps,
  log: Logger,
  tool: string,
  payload: unknown,
  args: unknown,
  call: () => Promise<ToolResult>,
): Promise<ToolResult> => {
  const once: PaidOnceDeps = {
    required: deps.facilitator?.paymentIdRequired ?? false,
    run: async (effect) => runOutcome(deps.runtime, effect),
    logger: log,
  };
  const gate = await gatePayment(once, paymentIdOf(payload), `MCP ${tool}`, [
    JSON.stringify(payload) ?? "",
    JSON.stringify(args) ?? "",
  ]);
  if (gate.kind === "refuse") return errorResult(`${gate.refusal.message} (${gate.refusal.code})`);
  if (gate.kind === "replay") return replayOf(gate.result);
  const result = await call();
  if (gate.kind === "named" && settled(result)) {
    const body = JSON.stringify(result);
    await keepResult(once, gate.key, {
      digest: gate.digest,
      status: 200,
      headers: { settlement: JSON.stringify(settlementOf(result)) },
      body: keptBody(body),
    });
  }
  return result;
};
