/**
 * Where a use case tells that a ceiling refused (the edge counts it in /metrics as
 * `ceiling_refusals_total{ceiling}`); by default nobody listens.
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type { CeilingName } from "./ceilings.ts";

export const CeilingRefusals = Context.Reference<{ readonly refused: (ceiling: CeilingName) => void }>(
  "core/CeilingRefusals",
  { defaultValue: () => ({ refused: () => undefined }) },
);

/** Tells that `ceiling` refused a request. */
export const noteRefusal = (ceiling: CeilingName) =>
  Effect.gen(function* () {
    (yield* CeilingRefusals).refused(ceiling);
  });
