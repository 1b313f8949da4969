/** What the Redis store is built from (its connection, limits, key prefix, replication and insight bounds). */
import type { UnattributedBounds } from "../../core/payments/unattributed.ts";
import type { InsightsBounds } from "../../core/ports/insights-store.ts";
import type * as Quota from "../../core/quota.ts";
import type { ConnectOptions } from "./redis-client.ts";
import type { OnRoundTrip } from "./round-trips.ts";

export interface RedisStoreOptions extends ConnectOptions {
  readonly limits: Quota.QuotaLimits;
  /** Namespace of every key (default "docs-chat:"), so several deployments can share a Redis. */
  readonly keyPrefix?: string;
  /** Take the process's shared connection to this URL (a hosted site's store: shared-connection.ts). */
  readonly shareConnection?: boolean;
  /**
   * Where used signatures are kept, if not under `keyPrefix`: a hosted site's store names the
   * service's prefix, so a transfer claimed on one site is used on every site (keys.ts).
   */
  readonly ledgerPrefix?: string;
  /** Called when the eviction policy cannot be read (CONFIG disabled), so the app can warn. */
  readonly onUnverifiedEviction?: () => void;
  /**
   * Replicas that must hold a payment claim before it is acknowledged (Redis WAIT); 0: none.
   * Replication is asynchronous: without this a failover can forget a used signature.
   */
  readonly waitReplicas?: number;
  /** How long a claim waits for them (default 1000 ms) before it fails as unavailable. */
  readonly waitTimeoutMs?: number;
  /** Retention and cap of the insights' event log (default 30 days, 100 000 events). */
  readonly insights?: InsightsBounds;
  /** Retention and cap of the unattributed payments (default 90 days, 10 000 entries). */
  readonly unattributed?: UnattributedBounds;
  /** Each round trip to Redis, by command (store_round_trips_total). */
  readonly onRoundTrip?: OnRoundTrip | undefined;
}
