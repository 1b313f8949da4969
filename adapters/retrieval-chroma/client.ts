/**
 * Connecting to Chroma and calling it safely. CHROMA_URL names a self-hosted server (the API
 * key, if any, goes in the x-chroma-token header); a key without URL means Chroma Cloud.
 * Every call has a timeout and is retried with exponential back-off and jitter when the
 * failure is transient (connection, 5xx, 429, timeout); it ends in RetrievalFailed, whose
 * message never contains the key.
 */
import {
  ChromaClient,
  ChromaConnectionError,
  ChromaRateLimitError,
  ChromaServerError,
  CloudClient,
  type Collection,
} from "chromadb";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import * as Schema from "effect/Schema";
import { RetrievalFailed } from "../../core/ports/retrieval.ts";
import { callWithRetry } from "../shared/retry.ts";

export interface ChromaOptions {
  /** Self-hosted server, e.g. http://127.0.0.1:8000; undefined for Chroma Cloud. */
  readonly url: string | undefined;
  readonly apiKey: Redacted.Redacted<string> | undefined;
  /** The collection (VECTOR_INDEX_NAME). */
  readonly collection: string;
  /** Retries after the first attempt (default 4). */
  readonly retries?: number;
  /** Per-attempt time limit (default 20 s). */
  readonly timeout?: Duration.Input;
}

const COLLECTION_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{1,510})[a-zA-Z0-9]$/;

/**
 * Refuses a collection whose vectors came from another embedder than the configured one
 * (recorded in its metadata at ingest), instead of silently mixing vector spaces.
 */
export const checkEmbedder = (
  collection: Collection,
  embedderName: string,
  whatToDo: string,
): Effect.Effect<Collection, RetrievalFailed> => {
  const stored = collection.metadata?.embedder;
  return stored === embedderName
    ? Effect.succeed(collection)
    : Effect.fail(
        new RetrievalFailed({
          message: `Chroma collection "${collection.name}" holds vectors of embedder ${String(stored)}, but ${embedderName} is configured: ${whatToDo}`,
        }),
      );
};

/** Checks the collection name against Chroma's rules, so a bad name fails with a clear message. */
export const checkCollectionName = (name: string): Effect.Effect<string, RetrievalFailed> =>
  COLLECTION_NAME.test(name) && !name.includes("..")
    ? Effect.succeed(name)
    : Effect.fail(
        new RetrievalFailed({
          message: `VECTOR_INDEX_NAME "${name}" is not a valid Chroma collection name (3-512 of a-z A-Z 0-9 . _ -, starting and ending with a letter or digit)`,
        }),
      );

/** A Chroma client for the options; a URL without port means 80/443 as usual. */
export const makeClient = (options: ChromaOptions): ChromaClient => {
  const key = options.apiKey === undefined ? undefined : Redacted.value(options.apiKey);
  if (options.url === undefined) return new CloudClient({ apiKey: key });
  const url = new URL(options.url);
  const ssl = url.protocol === "https:";
  return new ChromaClient({
    host: url.hostname,
    port: url.port === "" ? (ssl ? 443 : 80) : Number(url.port),
    ssl,
    headers: key === undefined ? undefined : { "x-chroma-token": key },
  });
};

class ChromaCallFailed extends Schema.TaggedError<ChromaCallFailed>()("ChromaCallFailed", {
  message: Schema.String,
  retryable: Schema.Boolean,
}) {}

const classify = (what: string, cause: unknown): ChromaCallFailed => {
  const retryable =
    cause instanceof ChromaConnectionError ||
    cause instanceof ChromaServerError ||
    cause instanceof ChromaRateLimitError ||
    (cause instanceof Error && cause.name === "TypeError" && /fetch|connect/i.test(cause.message));
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ChromaCallFailed({ message: `Chroma ${what} failed: ${detail}`, retryable });
};

/** Runs one Chroma request with timeout and retries; fails with RetrievalFailed. */
export const chromaCall = <A>(
  options: Pick<ChromaOptions, "retries" | "timeout">,
  what: string,
  request: () => Promise<A>,
): Effect.Effect<A, RetrievalFailed> =>
  callWithRetry({
    // chromadb's calls take no abort signal: a timed-out request is abandoned, not cancelled.
    try: request,
    classify: (cause) => classify(what, cause),
    timeout: options.timeout ?? Duration.seconds(20),
    onTimeout: () => new ChromaCallFailed({ message: `Chroma ${what} timed out`, retryable: true }),
    policy: { retries: options.retries ?? 4, baseDelayMs: 200, maxDelayMs: Infinity },
  }).pipe(Effect.mapError(({ failure }) => new RetrievalFailed({ message: failure.message })));

/** Metadata stored with each record next to its text. */
export interface ChunkMetadata {
  readonly title: string;
  readonly heading: string;
  readonly source: string;
  readonly url: string;
  readonly hash: string;
  [key: string]: string;
}

/** Opens the collection for reading; a missing one is a clear error, not an empty answer. */
export const openCollection = (
  client: ChromaClient,
  options: ChromaOptions,
): Effect.Effect<Collection, RetrievalFailed> =>
  Effect.flatMap(checkCollectionName(options.collection), (name) =>
    chromaCall(options, `opening collection ${name}`, () => client.getCollection({ name })),
  ).pipe(
    Effect.mapError((error) =>
      /could not be found/i.test(error.message)
        ? new RetrievalFailed({
            message: `Chroma has no collection "${options.collection}": run \`npm run ingest -- <docs folder>\` with the same CHROMA_URL and VECTOR_INDEX_NAME first`,
          })
        : error,
    ),
  );
