import * as Schema from "effect/Schema";

/** The shared state store (Redis) cannot be reached or answered wrongly: stateful endpoints fail closed (503). */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  reason: Schema.String,
}) {}
