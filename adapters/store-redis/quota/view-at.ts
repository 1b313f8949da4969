/** A quota hash read at `now` on Redis: QuotaStore.view and WalletCredits.view. */
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import * as Quota from "../../../core/quota.ts";
import { unavailable } from "../redis-client.ts";
import type { StoreClient } from "../store-client.ts";
import { decodeQuotaHash } from "./quota-hash.ts";

/**
 * One identity's view at `now`: one HGETALL, decoded by the rules of core/quota.ts. Never
 * rejects: a Redis failure or a hash our scripts did not write is a StoreUnavailable value.
 */
export const viewAt = (
  client: StoreClient,
  quotaKey: (identity: string) => string,
  limits: Quota.QuotaLimits,
) => {
  const blankView = Quota.blankViews(limits);
  return (identity: string, now: number): Promise<Quota.QuotaView | StoreUnavailable> =>
    client.hgetall(quotaKey(identity)).then(
      (hash) => {
        if (isEmpty(hash)) return blankView(now); // no key: a client with nothing remembered
        const state = decodeQuotaHash(hash, now);
        return state === undefined
          ? new StoreUnavailable({ reason: "corrupt quota state" })
          : Quota.view(state, now, limits);
      },
      (cause: unknown) => unavailable(cause),
    );
};

const isEmpty = (hash: Record<string, string>): boolean => {
  for (const _ in hash) return false;
  return true;
};
