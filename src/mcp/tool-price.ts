/**
 * A tool call under its price (MCP_TOOL_PRICES): a free tool just runs; a priced one first buys
 * with the call's payment (`_meta["x402/payment"]`, settled once through the chat's credit
 * dialect), then holds the questions it costs while it runs, counted only when it gives the
 * agent something (an answer that declines, an empty search or an unknown page is free), and
 * answers a payment-required result when the client has too few left. A call that signs in (or
 * holds a session, mcp-sign-in.ts) spends its wallet's credits and pays nothing.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as Effect from "effect/Effect";
import type { McpTool, McpToolPrices } from "../../core/config/config-mcp.ts";
import { formatUnits } from "../../core/payments/money.ts";
import type { Spender } from "../../core/use-cases/spend-query.ts";
import { spendQuestions } from "../../core/use-cases/spend-questions.ts";
import type { InsightsRecorder } from "../hono-kit/insights-recorder.ts";
import { runOutcome } from "../hono-kit/run-effect.ts";
import type { Logger } from "../observability/log.ts";
import { mcpToolResource } from "../payments/priced-resources.ts";
import { receiptOf } from "../payments/v2/x402-extensions.ts";
import { linkPayer } from "../sign-in/payer-link.ts";
import { SIGN_IN_REFUSALS } from "../sign-in/sign-in-refusals.ts";
import { type WalletAccessDeps, type WalletCredentials, walletAccessOf } from "../sign-in/wallet-access.ts";
import { paidToolOnce } from "./mcp-paid-once.ts";
import {
  buyWithPayload,
  errorResult,
  type McpPaymentDeps,
  offerPayment,
  PAYMENT_META,
  PAYMENT_RESPONSE_META,
  refusedResult,
} from "./mcp-payment.ts";
import { callCredentials } from "./mcp-sign-in.ts";
import { bindPaymentResult } from "./payment-binding.ts";

/** What a tool's handler gives back, as the MCP SDK takes it. */
export type ToolResult = CallToolResult;

export interface PricedCallContext extends McpPaymentDeps {
  readonly identity: string;
  readonly log: Logger;
  readonly recorder: InsightsRecorder;
  readonly prices: McpToolPrices;
  /** The price of a question in USDC base units (PaymentTerms.unitsPerQuery, as the chat's). */
  readonly unitsPerQuery: bigint;
  /** Sessions and sign-in, judged as the chat judges them. */
  readonly access: WalletAccessDeps;
  /** What the MCP request's HTTP headers present (a session, a sign-in proof). */
  readonly credentials: WalletCredentials;
}

export interface ToolRun {
  readonly result: ToolResult;
  /** Whether the agent got what it paid for (a refusal, a decline or a miss costs nothing). */
  readonly charged: boolean;
}

export const FREE_QUESTIONS_USED = "Free questions used up for today";

/** How a tool's description states its price. */
export const priceNote = (questions: number, unitsPerQuery: bigint): string =>
  questions === 0
    ? "Free."
    : `Each call takes ${questions === 1 ? "one question" : `${questions} questions`} from the client's quota (a few free a day, then ${formatUnits(unitsPerQuery)} USDC each): when too few are left, a result with isError and an x402 PaymentRequired asks for payment; sign it and call again with the PaymentPayload in _meta["x402/payment"].`;

/**
 * Runs `run` at `tool`'s price, spending a wallet first: the payer of this call's payment (it
 * signed this very call), else the wallet of its session or sign-in proof, else the wallet this
 * client paid with before, through its payer link (no more than was bought from this identity,
 * core/payments/link-allowance.ts). `heldByRun` questions are held by the run itself (ask_docs
 * holds one through the chat's use case, given the spender); the wrapper holds the rest. The
 * result takes the payment binding the request asked for (payment-binding.ts).
 */
export const underPrice = async (
  context: PricedCallContext,
  tool: McpTool,
  meta: Readonly<Record<string, unknown>> | undefined,
  args: unknown,
  run: (spender: Spender) => Promise<ToolRun>,
  heldByRun = 0,
): Promise<ToolResult> =>
  bindPaymentResult(meta, await underPriceUnbound(context, tool, meta, args, run, heldByRun));

const underPriceUnbound = async (
  context: PricedCallContext,
  tool: McpTool,
  meta: Readonly<Record<string, unknown>> | undefined,
  args: unknown,
  run: (spender: Spender) => Promise<ToolRun>,
  heldByRun = 0,
): Promise<ToolResult> => {
  const questions = context.prices[tool];
  if (questions === 0) return (await run({ identity: context.identity })).result;
  const payload = meta?.[PAYMENT_META];
  const credentials = callCredentials(context.credentials, meta);
  if (payload === undefined)
    return pricedCall(context, tool, questions, undefined, credentials, run, heldByRun);
  // A payment named by an x402 payment identifier is paid once: its resend gets this result back.
  return paidToolOnce(context, context.log, tool, payload, args, () =>
    pricedCall(context, tool, questions, payload, credentials, run, heldByRun),
  );
};

const pricedCall = async (
  context: PricedCallContext,
  tool: McpTool,
  questions: number,
  payload: unknown,
  credentials: WalletCredentials,
  run: (spender: Spender) => Promise<ToolRun>,
  heldByRun: number,
): Promise<ToolResult> => {
  const priced = mcpToolResource(tool, questions, context.unitsPerQuery);
  // A session or proof that is refused is said so, with a fresh offer and challenge, before any payment.
  const access = await walletAccessOf(credentials, context.identity, context.access);
  if (!access.ok) {
    const { error } = access;
    if (error._tag !== "SignInRefused")
      return errorResult(
        "The docs assistant is temporarily unavailable; nothing was charged. Try again shortly.",
      );
    const refusal = SIGN_IN_REFUSALS[error.reason];
    return offerPayment(context, priced, `${refusal.error} (${refusal.code})`);
  }
  const bought =
    payload === undefined
      ? undefined
      : await buyWithPayload(context, priced, payload, context.identity, context.log);
  if (bought !== undefined && !bought.ok) return refusedResult(context, priced, bought.refusal);
  if (bought?.ok === true)
    context.recorder.paid(context.log, {
      identity: context.identity,
      units: bought.units,
      queries: bought.queries,
      dialect: "x402-mcp",
      receipt: receiptOf(bought.settlement)?.signature,
    });
  // What the call just bought is spent first, else the wallet this client paid with before.
  const payer = bought?.ok === true ? bought.payer : undefined;
  if (payer !== undefined && bought?.ok === true)
    await runOutcome(context.runtime, linkPayer(context.identity, payer, bought.queries));
  const spender: Spender = {
    identity: context.identity,
    wallet: payer ?? access.wallet,
    // Reached through the payer link only: no more than was bought from this identity.
    throughLink: payer === undefined && access.via === "payer",
  };
  const spent = await runOutcome(
    context.runtime,
    spendQuestions(
      spender,
      questions - heldByRun,
      Effect.promise(() => run(spender)),
      (done) => done.charged,
    ),
  );
  if (!spent.ok) {
    const tag = spent.error._tag;
    if (tag === "QuotaExhausted") return offerPayment(context, priced, FREE_QUESTIONS_USED);
    if (tag === "PaidDailyCapReached")
      return errorResult(
        "The daily limit of paid questions is reached; credits stay available after 00:00 UTC.",
      );
    return errorResult(
      "The docs assistant is temporarily unavailable; nothing was charged. Try again shortly.",
    );
  }
  const { result } = spent.value.value;
  const { rateLimit } = spent.value;
  // The run reported what was left before the wrapper's own questions were counted.
  const structured =
    rateLimit !== undefined && typeof result.structuredContent?.remaining === "number"
      ? { structuredContent: { ...result.structuredContent, remaining: rateLimit.remaining } }
      : {};
  const settlement = bought?.ok === true ? { _meta: { [PAYMENT_RESPONSE_META]: bought.settlement } } : {};
  return { ...result, ...structured, ...settlement };
};
