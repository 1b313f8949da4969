/**
 * ChainReader over Solana JSON-RPC (@solana/kit). A lookup reads the transaction at
 * `confirmed`; when the node has none, the signature status tells "pending" (seen, not yet
 * confirmed) from "missing". Replies are decoded through core's ParsedTransaction schema:
 * anything that does not fit is a malformed reply, never a grant.
 */
import {
  type GetSignatureStatusesApi,
  type GetSlotApi,
  type GetTransactionApi,
  isSignature,
  type Rpc,
} from "@solana/kit";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { ParsedTransaction } from "../../core/payments/parsed-transaction.ts";
import { type ChainLookup, ChainReader } from "../../core/ports/chain-reader.ts";
import { createReaderRpc } from "./json-transport.ts";
import { cachingMisses, MISS_CACHE_DEFAULTS } from "./miss-cache.ts";
import { type CallPolicy, callRpc, malformedReply } from "./rpc-call.ts";

/**
 * The three methods the reader needs. Replies must carry integers as JSON numbers (bigints only
 * beyond 2^53), as the client of json-transport.ts gives them; kit's default client does not.
 */
export type ReaderRpc = Rpc<GetTransactionApi & GetSignatureStatusesApi & GetSlotApi>;

export interface ChainSolanaOptions {
  readonly rpcUrl: string;
  /** Per attempt (default 5000 ms). */
  readonly timeoutMs?: number;
  /** Attempts in all (default 4). */
  readonly attempts?: number;
  /** First back-off (default 200 ms, doubling, jittered). */
  readonly baseDelayMs?: number;
  /** How long a "not on chain" answer is reused (default 4000 ms; 0: never). */
  readonly missCacheMs?: number;
  /** Told of each RPC call (each attempt), with its cause (/metrics). */
  readonly onRpcCall?: (method: string, cause: "verify" | "readiness") => void;
}

export const DEFAULTS = { timeoutMs: 5000, attempts: 4, baseDelayMs: 200 } as const;

const Statuses = Schema.Struct({
  value: Schema.Array(Schema.NullOr(Schema.Struct({ slot: Schema.Int }))),
});

const decodeTransaction = Schema.decodeUnknownResult(ParsedTransaction);
const decodeStatuses = Schema.decodeUnknownResult(Statuses);

/** The reader over a kit RPC client that has the three methods it needs. */
export const make = (rpc: ReaderRpc, policy: CallPolicy = DEFAULTS): ChainReader["Service"] => {
  const lookup = Effect.fn("ChainSolana.lookup")(function* (signature: string) {
    // A string that is not a signature cannot name a transaction.
    if (!isSignature(signature)) return { kind: "missing" } satisfies ChainLookup;
    const raw = yield* callRpc("getTransaction", policy, (abortSignal) =>
      rpc
        .getTransaction(signature, {
          encoding: "jsonParsed",
          commitment: "confirmed",
          maxSupportedTransactionVersion: 0,
        })
        .send({ abortSignal }),
    );
    if (raw !== null) {
      const decoded = decodeTransaction(raw);
      if (Result.isFailure(decoded)) {
        return yield* Effect.fail(
          malformedReply("getTransaction", "the transaction does not have the expected shape"),
        );
      }
      // A reply about another transaction (a confused cache or proxy) must not be taken for ours.
      if (decoded.success.transaction.signatures[0] !== signature) {
        return yield* Effect.fail(malformedReply("getTransaction", "the reply is about another transaction"));
      }
      return { kind: "found", transaction: decoded.success } satisfies ChainLookup;
    }
    const statuses = yield* callRpc("getSignatureStatuses", policy, (abortSignal) =>
      rpc.getSignatureStatuses([signature]).send({ abortSignal }),
    );
    const decoded = decodeStatuses(statuses);
    if (Result.isFailure(decoded) || decoded.success.value.length !== 1) {
      return yield* Effect.fail(
        malformedReply("getSignatureStatuses", "the statuses do not have the expected shape"),
      );
    }
    return (
      decoded.success.value[0] === null ? { kind: "missing" } : { kind: "pending" }
    ) satisfies ChainLookup;
  });

  const ping = callRpc("getSlot", policy, (abortSignal) => rpc.getSlot().send({ abortSignal })).pipe(
    Effect.flatMap((slot) =>
      typeof slot === "bigint" || typeof slot === "number"
        ? Effect.void
        : Effect.fail(malformedReply("getSlot", "the slot is not a number")),
    ),
    Effect.withSpan("ChainSolana.ping"),
  );

  return { lookup, ping };
};

/** The reader over the JSON-RPC endpoint at `rpcUrl`, as a plain service value. */
export const fromUrl = (options: ChainSolanaOptions): ChainReader["Service"] =>
  make(
    // getSlot is the reader's ping, asked by /readyz; the other two look a payment up.
    createReaderRpc(options.rpcUrl, (method) =>
      options.onRpcCall?.(method, method === "getSlot" ? "readiness" : "verify"),
    ),
    {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      attempts: options.attempts ?? DEFAULTS.attempts,
      baseDelayMs: options.baseDelayMs ?? DEFAULTS.baseDelayMs,
    },
  );

/** ChainReader over the JSON-RPC endpoint at `rpcUrl`, its misses cached briefly (miss-cache.ts). */
export const layer = (options: ChainSolanaOptions) =>
  Layer.sync(ChainReader, () => {
    const reader = fromUrl(options);
    const ttlMs = options.missCacheMs ?? MISS_CACHE_DEFAULTS.ttlMs;
    return ttlMs === 0 ? reader : cachingMisses(reader, { ...MISS_CACHE_DEFAULTS, ttlMs });
  });
