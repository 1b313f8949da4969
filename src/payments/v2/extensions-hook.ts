/**
 * What the x402 v2 messages accept beside their terms: a hook that adds extensions to each
 * PaymentRequired and each successful settlement (built by x402-extensions.ts). Apart from it,
 * so the wire (wire.ts) depends on the shape only, not on what the extensions are.
 */
import type { PaymentRequired, SettleResponse } from "@x402/core/types";

export interface X402Extensions {
  /** `required` (for the resource its payment request binds) with this service's extensions. */
  readonly offered: (required: PaymentRequired, resource: string) => PaymentRequired;
  /** A successful settlement of `resourceUrl` with its signed receipt (a failed one unchanged). */
  readonly settled: (settlement: SettleResponse, resourceUrl: string) => SettleResponse;
}
