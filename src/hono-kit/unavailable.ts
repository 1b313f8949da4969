/**
 * The dependencies a request may find unreachable (503, nothing charged) and what each means
 * for the client: one total table, used by the chat's errors and by both payment dialects.
 */
import type { ChainUnavailable } from "../../core/ports/chain-reader.ts";
import type { GenerationFailed } from "../../core/ports/generator.ts";
import type { EmbeddingFailed, RetrievalFailed } from "../../core/ports/retrieval.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";

/** A dependency we could not reach: 503, nothing charged. */
export type Unavailable =
  | StoreUnavailable
  | ChainUnavailable
  | RetrievalFailed
  | EmbeddingFailed
  | GenerationFailed;

/** What each unavailable dependency means for the client; total over the 503 errors. */
export const UNAVAILABLE = {
  StoreUnavailable: "Service temporarily unavailable: state store unreachable",
  ChainUnavailable:
    "Blockchain RPC temporarily unavailable; your transfer is safe, retry the same signature shortly",
  RetrievalFailed: "Documentation search temporarily unavailable; no query was charged",
  EmbeddingFailed: "Documentation search temporarily unavailable; no query was charged",
  GenerationFailed: "Answer generation temporarily unavailable; no query was charged",
} as const satisfies Record<Unavailable["_tag"], string>;
