/**
 * POST /api/chat: JSON answers, or SSE (chat-stream.ts) when the client asks for a stream.
 * With X-Payment-Authorization or an x402 v2 PAYMENT-SIGNATURE the queries it paid for are bought
 * first (chat-payment.ts, through the paywall's entry), and the answer carries the payment's
 * receipt header; the message is checked before any payment is consumed.
 */
import { type Context, Hono } from "hono";
import { askQuestion } from "../../../core/use-cases/ask-question.ts";
import { validateMessage } from "../../../core/use-cases/prepare-answer.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import type { InsightsRecorder } from "../../hono-kit/insights-recorder.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { withHeaders } from "../../payments/server/spec-dialect.ts";
import type { ExactFacilitator } from "../../payments/v2/exact-payment.ts";
import { type PaidOnceDeps, paidOnce } from "../../payments/v2/paid-once.ts";
import { receiptInHeaders } from "../../payments/v2/x402-extensions.ts";
import { type WalletAccessDeps, walletAccess } from "../../sign-in/wallet-access-header.ts";
import { issueAnswerId } from "../answer-id.ts";
import { buyQueries, type ChatPaymentDeps, chatDialects, chatErrorResponse } from "../chat-payment.ts";
import { decodeChatRequest, publicSource } from "../chat-request.ts";
import { streamAnswer } from "./chat-stream.ts";

export interface ChatDeps {
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  /** Named in the text of a 429 (daily paid cap). */
  readonly paidDailyCap: number;
  readonly recorder: InsightsRecorder;
  /** The x402 v2 facilitator; absent: the chat's 402 offers only the spec's dialect. */
  readonly facilitator?: ExactFacilitator | undefined;
  /** Wallet sessions and sign-in: whose credits a request spends. */
  readonly access: WalletAccessDeps;
}

export const chatRoutes = ({ facilitator, ...rest }: ChatDeps) => {
  const deps: ChatPaymentDeps = { ...rest, dialects: chatDialects(facilitator, rest.metrics) };
  const required = facilitator?.paymentIdRequired ?? false;
  const run: PaidOnceDeps["run"] = async (effect) => runOutcome(deps.runtime, effect);
  const answer = async (c: Context<AppEnv>) => {
    const started = performance.now();
    const request = await decodeChatRequest(c);
    if (!request.ok) return request.response;
    const { message, conversationId, stream, locale } = request.value;
    // The message is checked before any payment is consumed.
    const valid = await runOutcome(deps.runtime, validateMessage(message));
    if (!valid.ok) return chatErrorResponse(c, deps, valid.error);
    // Without a session or a sign-in, the hold reads the payer link itself (one round trip fewer).
    const access = await walletAccess(c, deps.access, "in-hold");
    if (!access.ok) return chatErrorResponse(c, deps, access.error);
    const bought = await buyQueries(c, deps);
    if (bought !== undefined && !bought.ok) return bought.response;
    const receipt = bought?.headers ?? {};
    // What the request just bought is spent first, else the wallet it holds a session (or signed in) for.
    const wallet = bought?.payer ?? access.wallet;
    // Reached through the payer link only: no more than was bought from this address.
    const throughLink = bought?.payer === undefined && access.via === "payer";
    const question = { identity: c.env.identity, wallet, throughLink, message, conversationId, locale };
    const wantsStream = stream || (c.req.header("accept") ?? "").includes("text/event-stream");
    if (wantsStream) return withHeaders(await streamAnswer(c, deps, question, started), receipt);
    const outcome = await runOutcome(deps.runtime, askQuestion(question), c.req.raw.signal);
    if (!outcome.ok) return withHeaders(await chatErrorResponse(c, deps, outcome.error), receipt);
    const { answer, sources, rateLimit } = outcome.value;
    deps.metrics.count("answers_total");
    const answerId = await issueAnswerId(deps.runtime, c.env.identity, c.env.log);
    // The signed receipt of what this request bought (x402 offer-receipt), kept by the client.
    const signed = receiptInHeaders(receipt);
    const response = c.json(
      {
        success: true,
        answerId,
        response: answer.text,
        sources: sources.map(publicSource),
        tokensUsed: answer.tokensUsed,
        declined: answer.declined === true,
        rateLimit,
        ...(signed === undefined ? {} : { receipt: signed }),
      },
      200,
      receipt,
    );
    deps.recorder.answered(
      c.env.log,
      { question, outcome: outcome.value.outcome, answer, answerId },
      started,
    );
    return response;
  };
  // A payment named by an x402 payment identifier is paid once: its resend gets this answer back.
  return new Hono<AppEnv>().post("/", (c) =>
    paidOnce(
      c.req.raw,
      () => c.req.text(),
      { required, run, logger: c.env.log },
      () => answer(c),
    ),
  );
};
