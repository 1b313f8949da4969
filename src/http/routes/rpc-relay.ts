/**
 * POST /api/solana-rpc: the three JSON-RPC calls the widget makes, relayed to the service's own
 * RPC endpoint. The browser then needs no RPC address of its own (the configured one may carry
 * an API key, and the local demo chain listens on the server's loopback only), and CORS is the
 * service's. Every forwarded call is paid by the operator's RPC plan, so only what the widget
 * needs passes: single calls of the listed methods, their params checked per method
 * (rpc-relay-params.ts), `sendTransaction` only of a transaction paying this service
 * (relay-transfer.ts), within a per-client and a global budget shared by every instance and
 * every site through the store (core/use-cases/admit-relay-call.ts). Each call is counted in
 * /metrics by method and outcome.
 */
import * as Result from "effect/Result";
import type { Context } from "hono";
import { admitRelayCall } from "../../../core/use-cases/admit-relay-call.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { retryAfterSeconds } from "../../hono-kit/bearer-door.ts";
import { readJsonObject } from "../../hono-kit/read-json.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { paysService } from "./relay-transfer.ts";
import { decodeParams, isRelayed } from "./rpc-relay-params.ts";

const TIMEOUT_MS = 10_000;

export interface RpcRelayDeps {
  /** The chain's JSON-RPC endpoint (may carry an API key: never shown). */
  readonly rpcUrl: string;
  /** The service wallet and the USDC mint: the only payment `sendTransaction` relays. */
  readonly wallet: string;
  readonly usdcMint: string;
  readonly metrics: Metrics;
  /** The site's runtime: its store's ceiling counter is the service's, one for every site's relay. */
  readonly runtime: AppRuntime;
  /** The clock of the budget's minutes (tests pass their own). */
  readonly now?: (() => number) | undefined;
}

type Outcome =
  | "forwarded"
  | "method-refused"
  | "params-refused"
  | "transaction-refused"
  | "client-budget"
  | "global-budget"
  | "budget-unavailable"
  | "upstream-failed";

const rpcError = (
  c: Context<AppEnv>,
  id: unknown,
  code: number,
  message: string,
  status: 400 | 429 | 502 | 503,
  headers: Record<string, string> = {},
) => c.json({ jsonrpc: "2.0", error: { code, message }, id: id ?? null }, status, headers);

export const rpcRelay = (deps: RpcRelayDeps) => {
  const { rpcUrl, metrics, runtime } = deps;
  const now = deps.now ?? Date.now;
  const paysUs = paysService(deps.wallet, deps.usdcMint);
  // Method labels are the relayed names only, so a scan of made-up names cannot grow /metrics.
  const count = (method: string, outcome: Outcome) =>
    metrics.count("rpc_relay_calls_total", { method: isRelayed(method) ? method : "other", outcome });

  return async (c: Context<AppEnv>) => {
    const parsed = await readJsonObject(c);
    if (!parsed.ok) return parsed.response;
    const { id, method, params } = parsed.value;
    if (!isRelayed(method)) {
      count(String(method), "method-refused");
      return rpcError(c, id, -32601, `Method not relayed here: ${String(method).slice(0, 60)}`, 400);
    }
    const decoded = decodeParams(method, params);
    if (Result.isFailure(decoded)) {
      count(method, "params-refused");
      return rpcError(c, id, -32602, `Invalid params for ${method}: ${decoded.failure}`, 400);
    }
    if (method === "sendTransaction" && !(await paysUs(decoded.success[0] as string))) {
      count(method, "transaction-refused");
      return rpcError(
        c,
        id,
        -32602,
        "Only a USDC transfer to this service's wallet is sent through this relay",
        400,
      );
    }
    // A checked paying transaction is charged to its client only: the shared budget cannot be
    // spent by a few clients to stop everyone else's payments.
    const admitted = await runOutcome(
      runtime,
      admitRelayCall(c.env.identity, method === "sendTransaction", now()),
    );
    // Without the store no call is counted, so none is forwarded: the budget is the only bound.
    if (!admitted.ok) {
      count(method, "budget-unavailable");
      return rpcError(c, id, -32000, "RPC relay temporarily unavailable", 503, { "Retry-After": "5" });
    }
    const budget = admitted.value;
    if (budget.kind !== "ok") {
      count(method, budget.kind === "client" ? "client-budget" : "global-budget");
      const whose = budget.kind === "client" ? "this client's" : "the service's";
      return rpcError(c, id, -32005, `RPC relay: ${whose} budget for this minute is spent`, 429, {
        "Retry-After": retryAfterSeconds(budget.retryAfterMs),
      });
    }
    metrics.count("chain_rpc_calls_total", { method, cause: "relay" });
    const upstream = await fetch(rpcUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: id ?? null, method, params: decoded.success }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).catch(() => undefined);
    const text = upstream?.ok ? await upstream.text().catch(() => undefined) : undefined;
    // The upstream address and its error texts stay here: they may name a keyed endpoint.
    if (text === undefined) {
      count(method, "upstream-failed");
      c.env.log.warn("RPC relay: upstream unavailable", { method, status: upstream?.status });
      return rpcError(c, id, -32000, "Blockchain RPC temporarily unavailable", 502);
    }
    count(method, "forwarded");
    return c.body(text, 200, { "Content-Type": "application/json" });
  };
};
