/**
 * Where the store lives: one Redis by URL, a primary found through Sentinel, or a Redis Cluster;
 * none of them, the memory store. Exactly one of REDIS_URL, REDIS_SENTINELS and
 * REDIS_CLUSTER_NODES may be set. REDIS_URL carries its own password; the other two take the
 * data nodes' password from REDIS_PASSWORD. With Sentinel the money writes wait for one replica
 * by default (REDIS_WAIT_REPLICAS): Sentinel exists to promote a replica, and a replica that
 * never received a claim would grant its transfer again. On a cluster they wait only when asked
 * (every primary must then have that many replicas: the wait goes to each of them).
 */
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { type Decoded, envInteger, Flag, Opaque, rule, Text, Url } from "./config-fields.ts";
import { hostName } from "./config-surface.ts";

/** A node of a topology, as written in its list. */
export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

/** The Redis the store connects to. */
export type RedisTarget =
  | { readonly kind: "url"; readonly url: Redacted.Redacted<string> }
  | {
      readonly kind: "sentinel";
      readonly sentinels: ReadonlyArray<RedisNode>;
      /** The name the sentinels monitor the primary under. */
      readonly master: string;
      readonly password: Redacted.Redacted<string> | undefined;
    }
  | {
      readonly kind: "cluster";
      readonly nodes: ReadonlyArray<RedisNode>;
      readonly password: Redacted.Redacted<string> | undefined;
    };

/** `host:port`, the host a name or an address (IPv6 in brackets). */
const nodeOf = (text: string): RedisNode | undefined => {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(text.trim());
  if (match === null) return undefined;
  const port = Number(match[2]);
  // hostName gives an IPv6 address in brackets, as a URL writes it; the driver takes it bare.
  const host = hostName(match[1]!.replace(/^\[|\]$/g, ""))?.replace(/^\[|\]$/g, "");
  return host === undefined || port < 1 || port > 65535 ? undefined : { host, port };
};

/** A comma-separated list of `host:port`, every bad item named. */
const Nodes = rule((input): Result.Result<ReadonlyArray<RedisNode>, ReadonlyArray<string>> => {
  const items = String(input)
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  const bad = items.filter((item) => nodeOf(item) === undefined);
  if (items.length === 0) return Result.fail(['must list host:port, e.g. "10.0.0.1:26379,10.0.0.2:26379"']);
  return bad.length > 0
    ? Result.fail(bad.map((item) => `"${item}" is not host:port, e.g. 10.0.0.1:26379`))
    : Result.succeed(items.map((item) => nodeOf(item)!));
});

/** The store's variables, as fields of the service's settings (core/config/config-service.ts). */
export const REDIS_FIELDS = {
  REDIS_URL: Url(true),
  REDIS_SENTINELS: Nodes,
  REDIS_SENTINEL_MASTER: Text,
  REDIS_CLUSTER_NODES: Nodes,
  REDIS_PASSWORD: Opaque,
  REDIS_WAIT_REPLICAS: envInteger(0, 16),
  REDIS_WAIT_TIMEOUT_MS: envInteger(1, 60_000),
  ALLOW_MEMORY_STORE_ON_MAINNET: Flag,
};

type RedisSettings = Decoded<typeof REDIS_FIELDS>;
type TextOf = (name: string) => string | undefined;

const TOPOLOGIES = ["REDIS_URL", "REDIS_SENTINELS", "REDIS_CLUSTER_NODES"] as const;

/** The target (undefined: the memory store); the rules across the variables, as written, to `problems`. */
export const redisOf = (s: RedisSettings, text: TextOf, problems: string[]): RedisTarget | undefined => {
  const set = TOPOLOGIES.filter((name) => text(name) !== undefined);
  if (set.length > 1) problems.push(`${set.join(", ")}: set one of them, not ${set.length}`);
  if (text("REDIS_SENTINELS") !== undefined && text("REDIS_SENTINEL_MASTER") === undefined)
    problems.push("REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS (the name the sentinels monitor)");
  if (text("REDIS_SENTINEL_MASTER") !== undefined && text("REDIS_SENTINELS") === undefined)
    problems.push("REDIS_SENTINEL_MASTER: needs REDIS_SENTINELS");
  if (text("REDIS_PASSWORD") !== undefined && text("REDIS_URL") !== undefined)
    problems.push("REDIS_PASSWORD: not with REDIS_URL (the URL carries its own password)");
  else if (text("REDIS_PASSWORD") !== undefined && set.length === 0)
    problems.push("REDIS_PASSWORD: needs REDIS_SENTINELS or REDIS_CLUSTER_NODES");
  if (set.length === 0 && (s.REDIS_WAIT_REPLICAS ?? 0) > 0)
    problems.push(
      "REDIS_WAIT_REPLICAS: needs REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (replicas of which Redis?)",
    );
  if (
    text("CHAIN_NETWORK") === "mainnet-beta" &&
    set.length === 0 &&
    s.ALLOW_MEMORY_STORE_ON_MAINNET !== true
  )
    problems.push(
      "REDIS_URL: required on mainnet-beta (the memory store forgets paid credits on restart); set ALLOW_MEMORY_STORE_ON_MAINNET=true to override",
    );
  if (s.REDIS_URL !== undefined) return { kind: "url", url: Redacted.make(s.REDIS_URL) };
  if (s.REDIS_SENTINELS !== undefined)
    return {
      kind: "sentinel",
      sentinels: s.REDIS_SENTINELS,
      master: s.REDIS_SENTINEL_MASTER ?? "",
      password: s.REDIS_PASSWORD,
    };
  if (s.REDIS_CLUSTER_NODES !== undefined)
    return { kind: "cluster", nodes: s.REDIS_CLUSTER_NODES, password: s.REDIS_PASSWORD };
  return undefined;
};

/** Replicas each money write waits for: as set, else one behind Sentinel (which promotes replicas), else none. */
export const waitReplicasOf = (s: RedisSettings): number =>
  s.REDIS_WAIT_REPLICAS ?? (s.REDIS_SENTINELS !== undefined ? 1 : 0);
