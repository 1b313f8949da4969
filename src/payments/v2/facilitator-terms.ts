/**
 * What the facilitator API (POST /x402/verify, /x402/settle) sponsors for other servers: a
 * transfer to a `payTo` on an allow-list (X402_FACILITATOR_PAY_TO; default: this service's own
 * wallet only) of at least a minimum amount (X402_FACILITATOR_MIN_AMOUNT; default: the smallest
 * price the service offers, 0.01 USDC). Anything else is refused before it is co-signed or
 * simulated, with the x402 spec's `invalid_payment_requirements` (§9: the requirements are not
 * ones this facilitator serves).
 *
 * Why: the fee payer pays up to the fee cap (15,000 lamports) for each settlement, whatever it
 * moves. Without these terms a holder of the token could settle 0.000001 USDC between its own
 * wallets, 20 a minute per wallet and any number of wallets, and drain the fee payer to its
 * floor, withdrawing x402 v2 from the service's own visitors. With them, each sponsored fee
 * (at most 15,000 lamports = 0.000015 SOL) comes with at least 0.01 USDC paid to a wallet the
 * operator chose: the same ratio as the service's own smallest sale (less than the payment at
 * any SOL price below 666 USD, sponsor-policy.ts). The spend itself goes through the same fee
 * payer as the service's own (fee cap, payer locks and cool-downs, the balance floor).
 */
import { MIN_PAYMENT_UNITS } from "../../../core/payments/money.ts";

/** The x402 v2 spec's standard reason (§9 Error Handling) for requirements a facilitator will not serve. */
export const INVALID_PAYMENT_REQUIREMENTS = "invalid_payment_requirements";

/** The smallest price the service offers (priced-resources.ts): 0.01 USDC, in base units. */
export const DEFAULT_FACILITATOR_MIN_UNITS = MIN_PAYMENT_UNITS;

export interface FacilitatorTerms {
  /** The wallets (owners, as payment requirements name them) whose payments are sponsored. */
  readonly payTo: ReadonlyArray<string>;
  /** The least amount sponsored, in the mint's base units. */
  readonly minUnits: bigint;
}

/** The terms with their defaults: only `ownWallet`, at least the smallest price. */
export const facilitatorTerms = (
  ownWallet: string,
  configured: { readonly payTo?: ReadonlyArray<string>; readonly minUnits?: bigint } = {},
): FacilitatorTerms => ({
  payTo: configured.payTo !== undefined && configured.payTo.length > 0 ? configured.payTo : [ownWallet],
  minUnits: configured.minUnits ?? DEFAULT_FACILITATOR_MIN_UNITS,
});

/** Why the requirements fall outside the terms (the spec's reason), or undefined when they are within. */
export const refusalOfTerms = (
  terms: FacilitatorTerms,
  requirements: { readonly payTo: string; readonly amount: bigint },
): typeof INVALID_PAYMENT_REQUIREMENTS | undefined =>
  terms.payTo.includes(requirements.payTo) && requirements.amount >= terms.minUnits
    ? undefined
    : INVALID_PAYMENT_REQUIREMENTS;
