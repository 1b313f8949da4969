/**
 * JSON-RPC error values and the reply encoder. Handlers throw an `RpcFailure` to answer with a
 * JSON-RPC error; anything else thrown is an internal error.
 */

export interface RpcFailure {
  readonly _tag: "RpcFailure";
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** An error the client should see as a JSON-RPC `error` object. */
export const rpcFailure = (code: number, message: string, data?: unknown): RpcFailure => ({
  _tag: "RpcFailure",
  code,
  message,
  ...(data === undefined ? {} : { data }),
});

export const isRpcFailure = (value: unknown): value is RpcFailure =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "RpcFailure";

/** Invalid params (-32602), the code a real validator uses for bad arguments. */
export const invalidParams = (message: string): RpcFailure => rpcFailure(-32602, message);

// Random per process, so no string a client sends (a memo, say) can pose as a bigint marker.
const BIGINT_MARK = `bigint-${crypto.randomUUID()}:`;
const BIGINT_PATTERN = new RegExp(`"${BIGINT_MARK}(-?\\d+)"`, "g");

/**
 * JSON text where bigint values become plain JSON integers (u64 lamports, rent epochs), as a
 * validator writes them; JSON.stringify alone cannot.
 */
export const toJsonText = (value: unknown): string =>
  JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? `${BIGINT_MARK}${item}` : item)).replace(
    BIGINT_PATTERN,
    "$1",
  );
