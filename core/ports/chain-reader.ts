import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import type { ParsedTransaction } from "../payments/parsed-transaction.ts";

/** What the chain knows of a signature at `confirmed` commitment. */
export type ChainLookup =
  | { readonly kind: "found"; readonly transaction: ParsedTransaction }
  /** Seen by the cluster but not yet confirmed. */
  | { readonly kind: "pending" }
  | { readonly kind: "missing" };

/** The RPC could not give a trustworthy answer after its retries. */
export class ChainUnavailable extends Schema.TaggedError<ChainUnavailable>()("ChainUnavailable", {
  reason: Schema.Literals(["timeout", "unreachable", "rate-limited", "server-error", "malformed-reply"]),
  message: Schema.String,
}) {}

export class ChainReader extends Context.Service<
  ChainReader,
  {
    readonly lookup: (signature: string) => Effect.Effect<ChainLookup, ChainUnavailable>;
    readonly ping: Effect.Effect<void, ChainUnavailable>;
  }
>()("core/ChainReader") {}
