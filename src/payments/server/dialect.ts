/**
 * A payment dialect: one way for a client to prove payment on a priced route. The paywall
 * (paywall.ts) and /api/chat ask each dialect in turn whether the request carries its proof
 * (accept-payment.ts); the first that does decides. A dialect decodes its header, verifies it, and settles once the handler has
 * answered (`settle`), so a dialect that must move money after the handler succeeded (x402 v2's
 * "exact" scheme) fits the same shape as this spec's, which consumes the payment before.
 */
import type * as Effect from "effect/Effect";
import type { PaymentRejected } from "../../../core/payments/payment-rejected.ts";
import type { Offer } from "../../../core/payments/sealed-request.ts";
import type { PaymentAuthorization, PaymentRequest } from "../../../core/payments/x402.ts";
import type { Binding } from "../../../core/payments/x402-ledger.ts";
import type { PaymentReceipt } from "../../../core/payments/x402-receipt.ts";
import type { CeilingCounter } from "../../../core/ports/ceiling-counter.ts";
import type { ChainReader, ChainUnavailable } from "../../../core/ports/chain-reader.ts";
import type { PaidResults } from "../../../core/ports/paid-results.ts";
import type { PaymentRequests } from "../../../core/ports/payment-requests.ts";
import type { PaymentStore } from "../../../core/ports/payment-store.ts";
import type { PendingSettlements } from "../../../core/ports/pending-settlements.ts";
import type { RequestSeal } from "../../../core/ports/request-seal.ts";
import type { SecureRandom } from "../../../core/ports/secure-random.ts";
import type { SettlementLocks } from "../../../core/ports/settlement-locks-store.ts";
import type { SponsorLosses } from "../../../core/ports/sponsor-losses-store.ts";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { UnattributedPayments } from "../../../core/ports/unattributed-payments.ts";
import type { QuotaView } from "../../../core/quota.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import type { Logger } from "../../observability/log.ts";
import type { RouteTerms } from "./paywall-options.ts";

export type PaymentServices =
  | PaymentRequests
  | PaymentStore
  | ChainReader
  | SecureRandom
  | SettlementLocks
  | PendingSettlements
  | SponsorLosses
  | RequestSeal
  | CeilingCounter
  | UnattributedPayments
  | PaidResults;

/** Runs a payment effect with the route's chain; a defect rejects the promise (500). */
export type RunPayment = <A, E>(effect: Effect.Effect<A, E, PaymentServices>) => Promise<Outcome<A, E>>;

/** One request to a priced route. */
export interface PaidRoute {
  readonly terms: RouteTerms;
  /** Who asks: the chain lookups its payment causes count against this client's budget. */
  readonly client: string;
  readonly binding: Binding;
  /** `terms` for `binding`: what its sealed payment_ids are checked against. */
  readonly offer: Offer;
  readonly run: RunPayment;
}

/** What a handler reads with `c.get("x402")`. */
export type VerifiedPayment =
  | {
      readonly dialect: "x-payment-authorization";
      /** The authorization as the client sent it (its ed25519 signature checked). */
      readonly authorization: PaymentAuthorization;
      /** The request it paid, as we issued it. */
      readonly request: PaymentRequest;
      /** What the response's receipt header says: the transaction, payer and amount received. */
      readonly receipt: PaymentReceipt;
    }
  | {
      /** x402 v2, scheme exact: verified and claimed, settled on chain after the handler. */
      readonly dialect: "x402-v2";
      readonly request: PaymentRequest;
      /** The transaction that will settle (the fee payer's signature), its payer and the price. */
      readonly receipt: PaymentReceipt;
    };

export type PaymentRefusal = PaymentRejected | StoreUnavailable | ChainUnavailable;

export type Acceptance =
  | { readonly kind: "absent" }
  | { readonly kind: "refused"; readonly error: PaymentRefusal }
  | {
      readonly kind: "accepted";
      readonly payment: VerifiedPayment;
      /** After the handler: records the outcome and returns the response to send (with a receipt). */
      readonly settle: (response: Response) => Promise<Response>;
    };

/** What a dialect adds to a 402 that offers `request` for the resource at `url`. */
export interface Offering {
  readonly offer: (
    request: PaymentRequest,
    url: string,
    /** The 402's message, where the dialect repeats it (x402 v2's PAYMENT-REQUIRED `error`). */
    message?: string,
    /** Extensions the 402 adds last (the sign-in challenge), where the dialect carries them. */
    extensions?: Readonly<Record<string, unknown>>,
  ) => {
    readonly headers: Readonly<Record<string, string>>;
    readonly body: Readonly<Record<string, unknown>>;
  };
}

/** A dialect of a paywalled route: the goods are the handler's response. */
export interface PaymentDialect extends Offering {
  readonly name: string;
  /** Whether its payloads must carry an x402 payment identifier (x402 v2; paid-once.ts). */
  readonly paymentIdRequired?: boolean;
  readonly accept: (request: Request, route: PaidRoute) => Promise<Acceptance>;
}

/**
 * One request that buys queries (/api/chat): the goods are credits to `identity`, granted in
 * the same atomic step that consumes the payment, before the question is answered.
 */
export interface CreditRoute {
  readonly binding: Binding;
  /** What its 402s offer (binding, price, recipient): sealed payment_ids are checked against it. */
  readonly offer: Offer;
  /** The price of a question the payment buys at (PaymentTerms.unitsPerQuery). */
  readonly unitsPerQuery: bigint;
  readonly run: RunPayment;
  /** The client identity: credited only when no single wallet paid (the payer's wallet is). */
  readonly identity: string;
  /** The request's logger (its lines carry the request id). */
  readonly log: Logger;
}

/** What a credit dialect granted. */
export interface Credited {
  readonly queries: number;
  /** Base units the queries were bought with. */
  readonly units: bigint;
  /** The credited account's quota after the grant, when the store reports it. */
  readonly rateLimit: QuotaView | undefined;
  /** The wallet credited (the transfer's authority); undefined when the identity was. */
  readonly payer: string | undefined;
}

export type CreditAcceptance =
  | { readonly kind: "absent" }
  | {
      readonly kind: "refused";
      readonly error: PaymentRefusal;
      /** Headers the refusal carries (a failed settlement's PAYMENT-RESPONSE). */
      readonly headers?: Readonly<Record<string, string>>;
    }
  | {
      readonly kind: "accepted";
      readonly payment: VerifiedPayment;
      readonly credited: Credited;
      /** The receipt header(s) the answer carries. */
      readonly headers: Readonly<Record<string, string>>;
    };

/** A dialect that buys queries (/api/chat): the same proofs, credited instead of served. */
export interface CreditDialect extends Offering {
  readonly name: string;
  readonly accept: (request: Request, route: CreditRoute) => Promise<CreditAcceptance>;
}
