/**
 * What the service sells, declared once: each paid resource's binding (the route or tool its
 * payment requests are issued for), price and description, at the price of a question
 * (PaymentTerms.unitsPerQuery). The live 402s (the chat's, the MCP tool's) and the discovery
 * manifest (/.well-known/x402.json) are all built from these.
 */
import { type BaseUnits, formatUnits, BaseUnits as units } from "../../core/payments/money.ts";
import { queriesFor, smallestPurchase } from "../../core/payments/question-price.ts";

export interface PricedResource {
  /** Payment requests are issued for (and only pay) this binding. */
  readonly binding: { readonly resource: string; readonly method: string };
  readonly units: BaseUnits;
  /** The payment request's description, as a live 402 shows it. */
  readonly description: string;
}

/** Payment requests for the chat pay POST /api/chat, whatever its price. */
export const CHAT_BINDING = { resource: "/api/chat", method: "POST" } as const;

/** POST /api/chat: the smallest purchase (0.01 USDC, 10 questions, at the default price). */
export const chatResource = (unitsPerQuery: bigint): PricedResource => {
  const price = smallestPurchase(unitsPerQuery);
  return {
    binding: CHAT_BINDING,
    units: price,
    description: `Questions to the docs assistant: ${queriesFor(price, unitsPerQuery)} for ${formatUnits(price)} USDC (${formatUnits(unitsPerQuery)} USDC each; more pays for more)`,
  };
};

/**
 * An MCP tool that takes `questions` per call (MCP_TOOL_PRICES): an offer buys at least one
 * call, and never less than the smallest purchase (0.01 USDC, 10 questions, at the default price).
 */
export const mcpToolResource = (tool: string, questions: number, unitsPerQuery: bigint): PricedResource => {
  const least = BigInt(questions) * unitsPerQuery;
  const smallest = smallestPurchase(unitsPerQuery);
  const price = units(least > smallest ? least : smallest);
  const each = questions === 1 ? "one question" : `${questions} questions`;
  return {
    binding: { resource: `mcp:tools/${tool}`, method: "CALL" },
    units: price,
    description: `Questions to the docs assistant: ${queriesFor(price, unitsPerQuery)} for ${formatUnits(price)} USDC; ${tool} takes ${each} per call`,
  };
};
