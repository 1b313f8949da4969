/**
 * The memory store and the Redis store side by side, for the parity suite
 * (test/model/store-parity.model.test.ts): each call runs on both, and its two results are
 * brought to one comparable form. The stores name holds and leases themselves (random ids), so
 * each id is replaced by the name of the slot it was handed out in ("hold#3", "lease#1"): two
 * results are equal when they agree on everything but the random spelling of those ids. Only a
 * port's expected failures (tagged errors) settle as `{ error }`; anything else (a defect, an
 * outage, a plain Error, which JSON would render as {}) is a `{ crash }`, never equal to anything.
 */
import * as Cause from "effect/Cause";
import type * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { RedisAddress } from "../../adapters/store-redis/redis-client.ts";
import type { PaymentRequests } from "../../core/ports/payment-requests.ts";
import type { PaymentStore } from "../../core/ports/payment-store.ts";
import type { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import type { QuotaStore } from "../../core/ports/quota-store.ts";
import type { SettlementLocks } from "../../core/ports/settlement-locks-store.ts";
import type { SponsorLosses } from "../../core/ports/sponsor-losses-store.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { QuotaLimits } from "../../core/quota.ts";

export type PairStores =
  | QuotaStore
  | PaymentStore
  | PaymentRequests
  | SettlementLocks
  | PendingSettlements
  | SponsorLosses;
type Runtime = ManagedRuntime.ManagedRuntime<PairStores, StoreUnavailable>;

/** `{ ok }` or `{ error }`, JSON-plain (bigints as "123n"), ids as slot names; or a `{ crash }`. */
export type Settled = { readonly ok: unknown } | { readonly error: unknown } | { readonly crash: string };

/** The ports' expected failures: everything else a store fails with is a crash. */
const EXPECTED_FAILURES: ReadonlyArray<string> = [
  "AlreadyClaimed",
  "PaymentRejected",
  "QuotaExhausted",
  "PaidDailyCapReached",
];

/** An exit as Settled: a crash names what failed and where, so it can never compare equal. */
export const settleExit = <A, E>(exit: Exit.Exit<A, E>, names: ReadonlyMap<string, string>): Settled => {
  if (Exit.isSuccess(exit)) return { ok: plain(exit.value, names) };
  const failure = Cause.squash(exit.cause);
  const tag =
    typeof failure === "object" && failure !== null ? (failure as { _tag?: unknown })._tag : undefined;
  if (!Cause.hasDies(exit.cause) && typeof tag === "string" && EXPECTED_FAILURES.includes(tag))
    return { error: plain(failure, names) };
  return {
    crash:
      failure instanceof Error
        ? `${failure.name}: ${failure.message}\n${failure.stack ?? ""}`
        : String(failure),
  };
};

export interface StorePair {
  /** Runs the effect made for each store on it; the two exits, memory's then Redis's (side 0, 1). */
  readonly both: <A, E>(
    make: (side: 0 | 1) => Effect.Effect<A, E, PairStores>,
  ) => Promise<readonly [Exit.Exit<A, E | StoreUnavailable>, Exit.Exit<A, E | StoreUnavailable>]>;
  /** The Redis store's key prefix, for reading its keys directly. */
  readonly prefix: string;
  /** Names the id each store handed out for one slot, so later results compare equal. */
  readonly name: (slot: string, ids: readonly [string, string]) => void;
  /** The id a store handed out for a slot (a never-issued id when the slot is unknown). */
  readonly idOf: (side: 0 | 1, slot: string | undefined) => string;
  readonly settle: <A, E>(side: 0 | 1, exit: Exit.Exit<A, E>) => Settled;
  readonly dispose: () => Promise<void>;
}

const plain = (value: unknown, names: ReadonlyMap<string, string>): unknown =>
  JSON.parse(
    JSON.stringify(value ?? null, (_key, v: unknown) => {
      if (typeof v === "bigint") return `${v}n`;
      if (typeof v === "string") return names.get(v) ?? v;
      return v;
    }),
  );

/** A fresh memory store and a fresh namespace of the Redis server (or cluster) at `url`, with the same limits. */
export const openPair = (url: RedisAddress, limits: QuotaLimits): StorePair => {
  const prefix = `p-${crypto.randomUUID()}:`;
  const layers: readonly [
    Layer.Layer<PairStores, StoreUnavailable>,
    Layer.Layer<PairStores, StoreUnavailable>,
  ] = [MemoryStore.layer(limits), RedisStore.layer({ url, limits, keyPrefix: prefix })];
  const runtimes: readonly [Runtime, Runtime] = [
    ManagedRuntime.make(layers[0]),
    ManagedRuntime.make(layers[1]),
  ];
  // Per side: store id -> slot name, and back.
  const names = [new Map<string, string>(), new Map<string, string>()] as const;
  const ids = [new Map<string, string>(), new Map<string, string>()] as const;
  return {
    // One after the other, never interleaved: each store sees the calls in the same order.
    both: async (make) => [
      await runtimes[0].runPromiseExit(make(0)),
      await runtimes[1].runPromiseExit(make(1)),
    ],
    prefix,
    name: (slot, handed) => {
      for (const side of [0, 1] as const) {
        names[side].set(handed[side], slot);
        ids[side].set(slot, handed[side]);
      }
    },
    idOf: (side, slot) => (slot === undefined ? "never-issued" : (ids[side].get(slot) ?? "never-issued")),
    settle: (side, exit) => settleExit(exit, names[side]),
    dispose: async () => {
      await Promise.all(runtimes.map((runtime) => runtime.dispose()));
    },
  };
};
