import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { PaidResult } from "../payments/payment-identifier.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/**
 * The results of settled payments by payment identifier (core/payments/payment-identifier.ts),
 * shared by every instance: a resend on any instance finds the first result.
 */
export class PaidResults extends Context.Service<
  PaidResults,
  {
    readonly find: (key: string, now: number) => Effect.Effect<PaidResult | undefined, StoreUnavailable>;
    /**
     * Keeps `result` under `key` unless a live result is there already (one atomic step), for
     * PAID_RESULT_RETENTION_MS; the result that stays (the first) is returned.
     */
    readonly keep: (
      key: string,
      result: PaidResult,
      now: number,
    ) => Effect.Effect<PaidResult, StoreUnavailable>;
  }
>()("core/PaidResults") {}
