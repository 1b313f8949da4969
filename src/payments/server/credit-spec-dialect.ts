/**
 * The spec's dialect buying queries (/api/chat): an X-Payment-Authorization for a transfer the
 * client already made buys the queries it paid for (at the route's price), credited in the same
 * atomic step that consumes the payment, verified on chain always. A late transfer is credited
 * all the same (core/payments/late-transfer.ts): the questions are the goods, the wallet keeps them.
 */
import { queriesFor } from "../../../core/payments/question-price.ts";
import type { CreditAcceptance, CreditDialect } from "./dialect.ts";
import { acceptAuthorizationHeader, receiptHeaders, specHeaderOf, specOffering } from "./spec-dialect.ts";

export const specCreditDialect = (): CreditDialect => ({
  ...specOffering,
  accept: async (request, route): Promise<CreditAcceptance> => {
    const header = specHeaderOf(request);
    if (header === undefined) return { kind: "absent" };
    const queriesOf = (received: bigint) => queriesFor(received, route.unitsPerQuery);
    const accepted = await acceptAuthorizationHeader(
      header,
      {
        offer: route.offer,
        client: route.identity,
        verifyOnChain: true,
        grantTo: { identity: route.identity, queriesFor: queriesOf },
        lateTransfers: "serve",
      },
      route.run,
    );
    if (!accepted.ok) return { kind: "refused", error: accepted.error };
    const { payment, receipt, received, rateLimit, payer } = accepted.value;
    return {
      kind: "accepted",
      payment,
      credited: { queries: queriesOf(received), units: received, rateLimit, payer },
      headers: receiptHeaders(receipt),
    };
  },
});
