/**
 * POST /api/solana-rpc: the few JSON-RPC methods the widget needs, relayed to the service's own
 * RPC endpoint. The browser then needs no RPC address of its own (the configured one may carry
 * an API key, and the local demo chain listens on the server's loopback only), and CORS is the
 * service's. Only single calls of the listed methods pass; everything else is refused here.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { readJsonObject } from "../../hono-kit/read-json.ts";

/** What the widget calls: a blockhash to build a transfer, sending it, its status, Solana Pay lookups. */
export const RELAYED_METHODS: ReadonlySet<string> = new Set([
  "getLatestBlockhash",
  "sendTransaction",
  "getSignatureStatuses",
  "getSignaturesForAddress",
]);
const TIMEOUT_MS = 10_000;

const rpcError = (c: Context<AppEnv>, id: unknown, code: number, message: string, status: 400 | 502) =>
  c.json({ jsonrpc: "2.0", error: { code, message }, id: id ?? null }, status);

export const rpcRelay = (rpcUrl: string) => async (c: Context<AppEnv>) => {
  const parsed = await readJsonObject(c);
  if (!parsed.ok) return parsed.response;
  const { id, method, params } = parsed.value;
  if (typeof method !== "string" || !RELAYED_METHODS.has(method))
    return rpcError(c, id, -32601, `Method not relayed here: ${String(method).slice(0, 60)}`, 400);
  if (params !== undefined && !Array.isArray(params))
    return rpcError(c, id, -32602, "params must be an array", 400);
  const upstream = await fetch(rpcUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: id ?? null, method, params: params ?? [] }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  }).catch(() => undefined);
  const text = upstream?.ok ? await upstream.text().catch(() => undefined) : undefined;
  // The upstream address and its error texts stay here: they may name a keyed endpoint.
  if (text === undefined) {
    c.env.log.warn("RPC relay: upstream unavailable", { method, status: upstream?.status });
    return rpcError(c, id, -32000, "Blockchain RPC temporarily unavailable", 502);
  }
  return c.body(text, 200, { "Content-Type": "application/json" });
};
