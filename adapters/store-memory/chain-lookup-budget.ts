/**
 * ChainLookupBudget in one process, by the rule of core/payments/chain-lookup-budget.ts. The
 * per-client counts live for one window; a payment_id's signatures until its request expires.
 * Bounded by the global budget: only admitted lookups write, at most `perMinute` a minute, and
 * the lapsed payment entries are dropped at each new window.
 */
import * as Effect from "effect/Effect";
import { admitLookup, windowOf } from "../../core/payments/chain-lookup-budget.ts";
import { ChainLookupBudget } from "../../core/ports/chain-lookup-budget.ts";

interface PaymentLookups {
  readonly signatures: Array<string>;
  readonly expiresAt: number;
}

export const makeMemoryLookupBudget = () => {
  let current = -1;
  let clients = new Map<string, number>();
  let everyone = 0;
  const payments = new Map<string, PaymentLookups>();
  const enter = (now: number) => {
    const { window } = windowOf(now);
    if (window === current) return;
    current = window;
    clients = new Map();
    everyone = 0;
    for (const [id, entry] of payments) if (entry.expiresAt <= now) payments.delete(id);
  };
  const budget = ChainLookupBudget.of({
    reserve: (request, ceilings, now) =>
      Effect.sync(() => {
        enter(now);
        const held = request.payment === undefined ? undefined : payments.get(request.payment.id);
        const live = held !== undefined && held.expiresAt > now ? held : undefined;
        const verdict = admitLookup(
          { client: clients.get(request.client) ?? 0, everyone, paymentSignatures: live?.signatures ?? [] },
          request,
          ceilings,
          now,
        );
        if (!verdict.admitted) return verdict;
        clients.set(request.client, (clients.get(request.client) ?? 0) + 1);
        everyone += 1;
        const { payment } = request;
        if (payment !== undefined) {
          // Kept until the latest admitted lookup's horizon (PAYMENT_COUNTER_MAX_MS at most from it), as on Redis.
          const signatures = live?.signatures ?? [];
          if (!signatures.includes(request.signature)) signatures.push(request.signature);
          payments.set(payment.id, {
            signatures,
            expiresAt: Math.max(live?.expiresAt ?? 0, payment.expiresAt),
          });
        }
        return verdict;
      }),
  });
  return { budget, size: () => payments.size };
};
