/**
 * The RPC relay's budget: calls forwarded per client and for everyone together, in fixed
 * one-minute windows, in memory per instance, one for all sites (src/http/service-limiters.ts).
 * Each forwarded call spends the operator's RPC plan; the protection limit alone (100 a second per client) would let one client make millions a day.
 * Memory stays bounded by the clients active within one minute.
 */

export type BudgetVerdict =
  | { readonly kind: "ok" }
  | { readonly kind: "client" | "total"; readonly retryAfterMs: number };

export interface RelayBudgetOptions {
  readonly perClientPerMinute: number;
  readonly perMinute: number;
  readonly now?: () => number;
}

const MINUTE_MS = 60_000;

export const relayBudget = ({ perClientPerMinute, perMinute, now = Date.now }: RelayBudgetOptions) => {
  let window = Number.NaN;
  let spent = 0;
  let perClient = new Map<string, number>();
  /**
   * Spends one call of `client`'s budget (and of the service's, unless `global` is false: a
   * transaction that pays us, so a few clients spending the shared budget cannot stop everyone's
   * payments), or says whose budget is spent and until when.
   */
  return (client: string, global = true): BudgetVerdict => {
    const at = now();
    const current = Math.floor(at / MINUTE_MS);
    if (current !== window) {
      window = current;
      spent = 0;
      perClient = new Map();
    }
    const retryAfterMs = (current + 1) * MINUTE_MS - at;
    const mine = perClient.get(client) ?? 0;
    if (mine >= perClientPerMinute) return { kind: "client", retryAfterMs };
    if (global && spent >= perMinute) return { kind: "total", retryAfterMs };
    perClient.set(client, mine + 1);
    if (global) spent += 1;
    return { kind: "ok" };
  };
};

export type RelayBudget = ReturnType<typeof relayBudget>;
