/**
 * What went wrong with one RPC call, and whether trying again can help: transport failures,
 * timeouts, 429 and 5xx are worth a retry; a reply we cannot read is not (it would not be read
 * better the second time, and it must never be guessed at).
 */
import {
  isSolanaError,
  SOLANA_ERROR__MALFORMED_JSON_RPC_ERROR,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
} from "@solana/kit";
import type { ChainUnavailable } from "../../core/ports/chain-reader.ts";

export interface RpcProblem {
  readonly reason: ChainUnavailable["reason"];
  readonly retryable: boolean;
  readonly message: string;
}

// JSON-RPC errors a healthy node gives while it is busy or catching up.
const TRANSIENT_RPC_CODES: ReadonlySet<number> = new Set([
  -32603, -32005, -32004, -32016, -32014, -32009, -32007,
]);

export const timeoutProblem = (timeoutMs: number): RpcProblem => ({
  reason: "timeout",
  retryable: true,
  message: `no reply within ${timeoutMs} ms`,
});

export const malformedProblem = (message: string): RpcProblem => ({
  reason: "malformed-reply",
  retryable: false,
  message,
});

/** Classifies a failed kit RPC call. */
export const classifyRpcFailure = (cause: unknown): RpcProblem => {
  if (isSolanaError(cause, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
    const status = cause.context.statusCode;
    if (status === 429)
      return { reason: "rate-limited", retryable: true, message: "HTTP 429 from the RPC node" };
    return { reason: "server-error", retryable: status >= 500, message: `HTTP ${status} from the RPC node` };
  }
  if (cause instanceof SyntaxError) return malformedProblem("the RPC reply is not valid JSON");
  if (isSolanaError(cause)) {
    const code = Number(cause.context.__code);
    if (code === SOLANA_ERROR__MALFORMED_JSON_RPC_ERROR)
      return malformedProblem("the RPC error reply is malformed");
    if (code === 429)
      return { reason: "rate-limited", retryable: true, message: "rate limited by the RPC node" };
    return {
      reason: "server-error",
      retryable: TRANSIENT_RPC_CODES.has(code),
      message: `JSON-RPC error ${code}: ${cause.message}`,
    };
  }
  const detail = cause instanceof Error ? cause.message : String(cause);
  return { reason: "unreachable", retryable: true, message: `cannot reach the RPC node (${detail})` };
};
