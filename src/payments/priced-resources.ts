/**
 * What the service sells, declared once: each paid resource's binding (the route or tool its
 * payment requests are issued for), price and description. The live 402s (the chat's, the MCP
 * tool's) and the discovery manifest (/.well-known/x402.json) are all built from these.
 */
import {
  BaseUnits,
  formatUnits,
  MIN_PAYMENT_UNITS,
  queriesFor,
  UNITS_PER_QUERY,
} from "../../core/payments/money.ts";

export interface PricedResource {
  /** Payment requests are issued for (and only pay) this binding. */
  readonly binding: { readonly resource: string; readonly method: string };
  readonly units: BaseUnits;
  /** The payment request's description, as a live 402 shows it. */
  readonly description: string;
}

const PRICE = BaseUnits(MIN_PAYMENT_UNITS);

/** POST /api/chat: the smallest purchase, 0.01 USDC (10 questions). */
export const CHAT_RESOURCE: PricedResource = {
  binding: { resource: "/api/chat", method: "POST" },
  units: PRICE,
  description: `Questions to the docs assistant: ${queriesFor(PRICE)} for 0.01 USDC (0.001 USDC each; more pays for more)`,
};

/**
 * An MCP tool that takes `questions` per call (MCP_TOOL_PRICES): an offer buys at least one
 * call, and never less than the smallest purchase (0.01 USDC, 10 questions).
 */
export const mcpToolResource = (tool: string, questions: number): PricedResource => {
  const least = BigInt(questions) * UNITS_PER_QUERY;
  const units = BaseUnits(least > MIN_PAYMENT_UNITS ? least : MIN_PAYMENT_UNITS);
  const each = questions === 1 ? "one question" : `${questions} questions`;
  return {
    binding: { resource: `mcp:tools/${tool}`, method: "CALL" },
    units,
    description: `Questions to the docs assistant: ${queriesFor(units)} for ${formatUnits(units)} USDC; ${tool} takes ${each} per call`,
  };
};
