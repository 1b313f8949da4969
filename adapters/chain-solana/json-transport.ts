/**
 * A JSON-RPC transport for kit that parses replies with the engine's JSON.parse. kit's default
 * transport parses every reply with a bigint-aware parser in JavaScript, which costs about 1 ms
 * per getTransaction; here only integers beyond 2^53 (rare: huge lamport balances) take the
 * slow path, through the reviver's source text, so no amount is ever rounded.
 */
import {
  createJsonRpcApi,
  createRpc,
  type GetSignatureStatusesApi,
  type GetSlotApi,
  type GetTransactionApi,
  getSolanaErrorFromJsonRpcError,
  type Rpc,
  type RpcTransport,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SolanaError,
} from "@solana/kit";

/** The method a JSON-RPC payload names. */
const methodOf = (payload: unknown): string => {
  const method = (payload as { readonly method?: unknown } | null)?.method;
  return typeof method === "string" ? method : "other";
};

const LONG_DIGITS = /\d{16}/;

const exactIntegers = (_key: string, value: unknown, context?: { source?: string }) =>
  typeof value === "number" &&
  Number.isInteger(value) &&
  !Number.isSafeInteger(value) &&
  context?.source !== undefined
    ? BigInt(context.source)
    : value;

/** Parses JSON, keeping integers beyond 2^53 exact (as bigints). */
const parseRpcJson = (text: string): unknown =>
  LONG_DIGITS.test(text)
    ? JSON.parse(text, exactIntegers as (key: string, value: unknown) => unknown)
    : JSON.parse(text);

const bigintsAsNumbers = (_key: string, value: unknown) =>
  typeof value === "bigint" ? Number(value) : value;

/**
 * POSTs each request to `url`, told to `onCall` first; HTTP errors become kit's transport error
 * so retries classify them.
 */
const jsonTransport =
  (url: string, onCall: (method: string) => void): RpcTransport =>
  async <TResponse>({ payload, signal }: Parameters<RpcTransport>[0]): Promise<TResponse> => {
    onCall(methodOf(payload));
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(payload, bigintsAsNumbers),
      ...(signal === undefined ? {} : { signal }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, {
        headers: response.headers,
        message: response.statusText,
        statusCode: response.status,
      });
    }
    return parseRpcJson(await response.text()) as TResponse;
  };

type ReaderApi = GetTransactionApi & GetSignatureStatusesApi & GetSlotApi;

/**
 * A kit RPC client for the reader's three methods without kit's default response transformer,
 * which walks every reply to turn numbers into bigints (about 0.8 ms per transaction) only for
 * the adapter to turn them back. Error replies still become kit's SolanaError.
 */
export const createReaderRpc = (url: string, onCall: (method: string) => void = () => {}): Rpc<ReaderApi> =>
  createRpc({
    api: createJsonRpcApi<ReaderApi>({
      responseTransformer: (response) => {
        const reply = response as { readonly error?: unknown; readonly result?: unknown };
        if (reply.error !== undefined) throw getSolanaErrorFromJsonRpcError(reply.error);
        return reply.result as never;
      },
    }),
    transport: jsonTransport(url, onCall),
  });
