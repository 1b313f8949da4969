/** The ledger input of a PaymentRequests claim, the same for both stores. */
import type { PaymentRequestClaim } from "../ports/payment-requests.ts";
import type { ClaimInput } from "./x402-ledger.ts";

/** Who a used signature is recorded for when nothing is granted: the resource it paid. */
const NO_IDENTITY_PREFIX = "x402:";

/** The ledger's claim: a grant is served at once; otherwise the handler holds `lease`. */
export const claimInput = (claim: PaymentRequestClaim, lease: string): ClaimInput => ({
  binding: claim.binding,
  signature: claim.signature,
  paidAt: claim.paidAt,
  lease,
  served: claim.grant !== undefined,
  identity: claim.grant?.identity ?? `${NO_IDENTITY_PREFIX}${claim.binding.method} ${claim.binding.resource}`,
  queries: claim.grant?.queries ?? 0,
  ...(claim.sealed === undefined ? {} : { sealed: claim.sealed }),
  ...(claim.acceptsLate === true ? { acceptsLate: true } : {}),
});
