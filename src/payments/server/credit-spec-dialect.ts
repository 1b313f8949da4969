/**
 * The spec's dialect buying queries (/api/chat): an X-Payment-Authorization for a transfer the
 * client already made buys the queries it paid for (0.001 USDC each), credited in the same
 * atomic step that consumes the payment, verified on chain always.
 */
import { BaseUnits, queriesFor } from "../../../core/payments/money.ts";
import { AUTHORIZATION_HEADER } from "../../../core/payments/x402-receipt.ts";
import type { CreditAcceptance, CreditDialect } from "./dialect.ts";
import { paymentRequestOf } from "./issue-request.ts";
import { acceptAuthorizationHeader, receiptHeaders } from "./spec-dialect.ts";

const queriesOf = (received: bigint) => queriesFor(BaseUnits(received));

export const specCreditDialect = (): CreditDialect => ({
  name: "x-payment-authorization",
  offer: (request) => ({ headers: {}, body: request }),
  accept: async (request, route): Promise<CreditAcceptance> => {
    const header = request.headers.get(AUTHORIZATION_HEADER);
    if (header === null) return { kind: "absent" };
    const accepted = await acceptAuthorizationHeader(
      header,
      {
        binding: route.binding,
        verifyOnChain: true,
        grantTo: { identity: route.identity, queriesFor: queriesOf },
      },
      route.run,
    );
    if (!accepted.ok) return { kind: "refused", error: accepted.error };
    const { issued, authorization, receipt, received, rateLimit } = accepted.value;
    return {
      kind: "accepted",
      payment: {
        dialect: "x-payment-authorization",
        authorization,
        request: paymentRequestOf(issued),
        receipt,
      },
      credited: { queries: queriesOf(received), units: received, rateLimit },
      headers: receiptHeaders(receipt),
    };
  },
});
