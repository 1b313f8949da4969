/**
 * Who spends the operator's RPC plan: every JSON-RPC request the service sends (each retry
 * too, since each is a call the plan counts) is told, with its method and the cause that made
 * it, to an `OnRpcCall` (/metrics: chain_rpc_calls_total{method,cause}).
 */
import { createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from "@solana/kit";

/**
 * verify: a payment's transaction looked up; readiness: /readyz's ping; sponsor: the x402 v2
 * fee payer's blockhash, mint, simulation, sending and confirmation; balance: the fee payer's
 * balance watch; relay: the widget's RPC relay.
 */
export type RpcCause = "verify" | "readiness" | "sponsor" | "balance" | "relay";
export type OnRpcCall = (method: string, cause: RpcCause) => void;

/** The method a JSON-RPC payload names (a batch is not sent by this service). */
const methodOf = (payload: unknown): string => {
  const method = (payload as { readonly method?: unknown } | null)?.method;
  return typeof method === "string" ? method : "other";
};

/** `inner`, telling `onCall` of each request before it is sent. */
export const countingTransport =
  (inner: RpcTransport, cause: RpcCause, onCall: OnRpcCall): RpcTransport =>
  (request) => {
    onCall(methodOf(request.payload), cause);
    return inner(request);
  };

/** kit's Solana RPC client on `url`, each call counted under `cause`. */
export const countedSolanaRpc = (url: string, cause: RpcCause, onCall: OnRpcCall = () => {}) =>
  createSolanaRpcFromTransport(countingTransport(createDefaultRpcTransport({ url }), cause, onCall));
