/**
 * Which binding a payment-required result takes (x402's MCP transport, "Binding Selection"): a
 * request that advertises the `org.x402/payment` extension in its per-request client capabilities
 * (MCP 2026-07-28's `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`) gets
 * `resultType: "payment_required"` with the PaymentRequired in `paymentRequired`, which the
 * transport says a server MUST use when both sides support it; every other request keeps the
 * tool-result binding (`isError` with the PaymentRequired as structured content and text), the
 * one the official MCP SDK client and the x402 MCP clients of today read. On MCP 2026-07-28 every
 * other result says `resultType: "complete"`. Neither changes what a call costs.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export const PAYMENT_EXTENSION = "org.x402/payment";
const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";
/** The first MCP revision with result types and per-request capabilities. */
const RESULT_TYPES_REVISION = "2026-07-28";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether the request's `_meta` advertises the `org.x402/payment` extension. */
export const advertisesPaymentExtension = (meta: Readonly<Record<string, unknown>> | undefined): boolean => {
  const capabilities = meta?.[CLIENT_CAPABILITIES_META];
  const extensions = isRecord(capabilities) ? capabilities.extensions : undefined;
  return isRecord(extensions) && extensions[PAYMENT_EXTENSION] !== undefined;
};

/** The PaymentRequired a tool-result binding carries, if `result` is one. */
const paymentRequiredOf = (result: CallToolResult): Record<string, unknown> | undefined => {
  const structured = result.structuredContent;
  return result.isError === true &&
    structured !== undefined &&
    structured.x402Version !== undefined &&
    Array.isArray(structured.accepts)
    ? structured
    : undefined;
};

/** `result` in the binding the request asked for. */
export const bindPaymentResult = (
  meta: Readonly<Record<string, unknown>> | undefined,
  result: CallToolResult,
): CallToolResult => {
  const required = paymentRequiredOf(result);
  if (required !== undefined && advertisesPaymentExtension(meta))
    return { resultType: "payment_required", paymentRequired: required, content: [] };
  return meta?.[PROTOCOL_VERSION_META] === RESULT_TYPES_REVISION
    ? { ...result, resultType: "complete" }
    : result;
};
