/**
 * One contract for every PaymentRequests store: the memory store and the Redis store (a real
 * redis-server) follow core/payments/x402-ledger.ts alike, share the used-signature ledger with
 * POST /api/payment, and (Redis) give exactly one success to two instances racing on one claim.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Cause from "effect/Cause";
import type * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Result from "effect/Result";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import {
  CLAIM_RETENTION_MS,
  type IssuedPayment,
  LATE_TRANSFER_GRACE_MS,
  LEASE_MS,
  SETTLE_GRACE_MS,
} from "../../core/payments/x402-ledger.ts";
import {
  type PaymentGrant,
  type PaymentRequestClaim,
  PaymentRequests,
} from "../../core/ports/payment-requests.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
type Stores = PaymentRequests | PaymentStore | QuotaStore;
type MakeLayer = (namespace: string) => Layer.Layer<Stores, StoreUnavailable>;

const binding = { resource: "/premium-data", method: "GET" };

const client = (runtime: ManagedRuntime.ManagedRuntime<Stores, StoreUnavailable>) => {
  const run = <A, E>(effect: Effect.Effect<A, E, Stores>) => runtime.runPromise(effect);
  /** "ok" or the rejection's reason (or the error's tag). */
  const outcome = async <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E, Stores>) => {
    const exit = await runtime.runPromiseExit(effect);
    if (Exit.isSuccess(exit)) return "ok";
    const error = Cause.findError(exit.cause);
    if (Result.isFailure(error)) return "defect";
    return error.success._tag === "PaymentRejected" && "reason" in error.success
      ? String(error.success.reason)
      : error.success._tag;
  };
  return {
    issue: (issued: IssuedPayment, now: number) => run(PaymentRequests.use((r) => r.issue(issued, now))),
    find: (id: string, now: number) => run(PaymentRequests.use((r) => r.find(id, now))),
    claim: (claim: PaymentRequestClaim, now: number) => run(PaymentRequests.use((r) => r.claim(claim, now))),
    tryClaim: (claim: PaymentRequestClaim, now: number) =>
      outcome(PaymentRequests.use((r) => r.claim(claim, now))),
    finish: (id: string, lease: string, served: boolean, now: number, grant?: PaymentGrant) =>
      run(PaymentRequests.use((r) => r.finish(id, lease, served, now, grant))),
    claimSignature: (sig: string, id: string, queries: number, now: number) =>
      outcome(PaymentStore.use((p) => p.claim(sig, id, queries, now))),
    isClaimed: (sig: string, now: number) => run(PaymentStore.use((p) => p.isClaimed(sig, now))),
    view: (id: string, now: number) => run(QuotaStore.use((q) => q.view(id, now))),
    outcome,
  };
};

const contract = (name: string, makeLayer: MakeLayer, shared: boolean) =>
  describe(`${name} PaymentRequests contract`, () => {
    const runtimes: Array<ManagedRuntime.ManagedRuntime<Stores, StoreUnavailable>> = [];
    afterAll(() => Promise.all(runtimes.map((runtime) => runtime.dispose())));
    const open = () => {
      const namespace = `x402-${crypto.randomUUID()}:`;
      const first = ManagedRuntime.make(makeLayer(namespace));
      const second = shared ? ManagedRuntime.make(makeLayer(namespace)) : first;
      runtimes.push(first, second);
      return [client(first), client(second)] as const;
    };
    const now = Date.now();
    const issued = (overrides: Partial<IssuedPayment> = {}): IssuedPayment => ({
      paymentId: `pay_${crypto.randomUUID().replaceAll("-", "")}`,
      nonce: "n0nce0000000000000000000",
      resource: binding.resource,
      method: binding.method,
      units: 100_000n,
      payTo: "Wallet1111111111111111111111111111111111111",
      mint: "Mint11111111111111111111111111111111111111",
      network: "chain-devnet",
      expiresAt: now + 300_000,
      description: "Premium data | with a pipe",
      ...overrides,
    });
    const claimOf = (
      payment: IssuedPayment,
      signature: string,
      extra: Partial<PaymentRequestClaim> = {},
    ) => ({
      paymentId: payment.paymentId,
      binding,
      signature,
      paidAt: now,
      ...extra,
    });

    test("an issued request is found as issued, open; an unknown one is not", async () => {
      const [store, peer] = open();
      const payment = issued();
      await store.issue(payment, now);
      expect(await peer.find(payment.paymentId, now)).toEqual({ issued: payment, state: { kind: "open" } });
      expect(await peer.find("pay_never_issued", now)).toBeUndefined();
    });

    test("a sealed request nothing stored is claimed once, written then, and kept past its grace", async () => {
      const [store, peer] = open();
      // Expiring after the claim retention: the record must outlive it, or the id reads as open again.
      const payment = issued({ expiresAt: now + 2 * 86_400_000 });
      expect(await store.find(payment.paymentId, now)).toBeUndefined();
      await store.claim(claimOf(payment, "sealed-sig-1", { sealed: payment }), now);
      expect(await peer.find(payment.paymentId, now)).toMatchObject({
        issued: payment,
        state: { kind: "claimed", signature: "sealed-sig-1" },
      });
      expect(await peer.tryClaim(claimOf(payment, "sealed-sig-2", { sealed: payment }), now)).toBe(
        "payment-already-used",
      );
      const afterRetention = now + 86_400_000 + 1;
      expect(await peer.find(payment.paymentId, afterRetention)).toMatchObject({
        state: { kind: "claimed" },
      });
      expect(
        await store.tryClaim(claimOf(payment, "sealed-sig-3", { sealed: payment }), afterRetention),
      ).toBe("payment-already-used");
      // Without the caller's proof, an id nothing stored is unknown, as before.
      const unsealed = issued();
      expect(await store.tryClaim(claimOf(unsealed, "sealed-sig-4"), now)).toBe("payment-unknown");
    });

    test("claim once: the payment and the signature are consumed together", async () => {
      const [store, peer] = open();
      const payment = issued();
      await store.issue(payment, now);
      const claimed = await store.claim(claimOf(payment, "sig-1"), now);
      expect(claimed).toMatchObject({ retry: false, rateLimit: undefined });
      expect(await peer.find(payment.paymentId, now)).toMatchObject({
        state: { kind: "claimed", signature: "sig-1", lease: claimed.lease, leaseUntil: now + LEASE_MS },
      });
      expect(await peer.isClaimed("sig-1", now)).toBe(true);
      expect(await peer.tryClaim(claimOf(payment, "sig-1"), now)).toBe("payment-already-used");
      expect(await peer.tryClaim(claimOf(payment, "sig-2"), now)).toBe("payment-already-used");
      // The same transaction cannot pay a second request, nor buy queries on POST /api/payment.
      const second = issued();
      await store.issue(second, now);
      expect(await peer.tryClaim(claimOf(second, "sig-1"), now)).toBe("signature-already-used");
      expect(await peer.claimSignature("sig-1", "1.2.3.4", 10, now)).toBe("AlreadyClaimed");
    });

    test("a signature used by POST /api/payment cannot pay a request", async () => {
      const [store, peer] = open();
      expect(await store.claimSignature("sig-p", "1.2.3.4", 10, now)).toBe("ok");
      const payment = issued();
      await store.issue(payment, now);
      expect(await peer.tryClaim(claimOf(payment, "sig-p"), now)).toBe("signature-already-used");
      // A refused claim consumed nothing.
      expect(await peer.find(payment.paymentId, now)).toMatchObject({ state: { kind: "open" } });
    });

    test("wrong resource or method, late payment, unknown id", async () => {
      const [store] = open();
      const payment = issued();
      await store.issue(payment, now);
      const other = { resource: "/expensive-data", method: "GET" };
      expect(await store.tryClaim(claimOf(payment, "s", { binding: other }), now)).toBe(
        "payment-other-resource",
      );
      const post = { ...binding, method: "POST" };
      expect(await store.tryClaim(claimOf(payment, "s", { binding: post }), now)).toBe(
        "payment-other-resource",
      );
      expect(
        await store.tryClaim(
          claimOf(payment, "s", { paidAt: payment.expiresAt + LATE_TRANSFER_GRACE_MS + 1 }),
          now,
        ),
      ).toBe("payment-expired");
      expect(await store.tryClaim({ ...claimOf(payment, "s"), paymentId: "pay_nope12345" }, now)).toBe(
        "payment-unknown",
      );
      expect(await store.isClaimed("s", now)).toBe(false);
    });

    test("a claim that accepts late: landed and presented past both graces, claimed once (a sealed request)", async () => {
      const [store, peer] = open();
      const payment = issued();
      // Presented 20 minutes after expires_at (past the settle grace), paid 5 minutes after it.
      const later = payment.expiresAt + SETTLE_GRACE_MS + 10 * 60_000;
      const late = { sealed: payment, paidAt: payment.expiresAt + 5 * 60_000 };
      expect(await store.tryClaim(claimOf(payment, "late-sig", late), later)).toBe("payment-expired");
      expect(await store.tryClaim(claimOf(payment, "late-sig", { ...late, acceptsLate: true }), later)).toBe(
        "ok",
      );
      expect(await peer.find(payment.paymentId, later)).toMatchObject({
        state: { kind: "claimed", signature: "late-sig" },
      });
      expect(await peer.isClaimed("late-sig", later)).toBe(true);
      // Accepting late opens no second claim: the request is used, the signature too.
      expect(await peer.tryClaim(claimOf(payment, "late-sig-2", { ...late, acceptsLate: true }), later)).toBe(
        "payment-already-used",
      );
    });

    test("a failed handler: the same transaction claims again, then served is final", async () => {
      const [store, peer] = open();
      const payment = issued();
      await store.issue(payment, now);
      const first = await store.claim(claimOf(payment, "sig-r"), now);
      await store.finish(payment.paymentId, "another-lease", true, now);
      expect(await peer.find(payment.paymentId, now)).toMatchObject({ state: { kind: "claimed" } });
      await store.finish(payment.paymentId, first.lease, false, now);
      expect(await peer.find(payment.paymentId, now)).toMatchObject({
        state: { kind: "unserved", signature: "sig-r" },
      });
      expect(await peer.tryClaim(claimOf(payment, "sig-other"), now)).toBe("payment-already-used");
      const retry = await peer.claim(claimOf(payment, "sig-r"), now);
      expect(retry.retry).toBe(true);
      await peer.finish(payment.paymentId, retry.lease, true, now);
      expect(await store.find(payment.paymentId, now)).toMatchObject({
        state: { kind: "served", signature: "sig-r" },
      });
      expect(await store.tryClaim(claimOf(payment, "sig-r"), now)).toBe("payment-already-used");
    });

    test("a grant credits the identity in the same step and serves the request", async () => {
      const [store, peer] = open();
      const payment = issued({ resource: "/api/chat", method: "POST" });
      await store.issue(payment, now);
      const claim = claimOf(payment, "sig-g", {
        binding: { resource: "/api/chat", method: "POST" },
        grant: { identity: "198.51.100.4", queries: 10 },
      });
      const claimed = await store.claim(claim, now);
      expect(claimed.rateLimit).toMatchObject({ remaining: 13, requiresPayment: false });
      expect(await peer.view("198.51.100.4", now)).toMatchObject({ remaining: 13 });
      expect(await peer.find(payment.paymentId, now)).toMatchObject({ state: { kind: "served" } });
      // Replayed: nothing more is granted.
      expect(await peer.tryClaim(claim, now)).toBe("payment-already-used");
      expect(await peer.view("198.51.100.4", now)).toMatchObject({ remaining: 13 });
    });

    const chatBinding = { resource: "/api/chat", method: "POST" };
    const reserve = async (store: ReturnType<typeof client>, signature: string, at = now) => {
      const payment = issued({ resource: chatBinding.resource, method: chatBinding.method });
      await store.issue(payment, at);
      const reserved = await store.claim(claimOf(payment, signature, { binding: chatBinding }), at);
      return { payment, reserved };
    };
    const buyer = (identity: string): PaymentGrant => ({ identity, queries: 10 });

    test("a reservation (claim without grant) credits nothing until it is served with the grant, once", async () => {
      const [store, peer] = open();
      const { payment, reserved } = await reserve(store, "sig-v");
      expect(reserved.rateLimit).toBeUndefined();
      expect(await peer.view("198.51.100.5", now)).toMatchObject({ remaining: 3 });
      expect(await peer.tryClaim(claimOf(payment, "sig-v2", { binding: chatBinding }), now)).toBe(
        "payment-already-used",
      );
      const otherLease = await peer.finish(
        payment.paymentId,
        "another-lease",
        true,
        now,
        buyer("198.51.100.5"),
      );
      expect(otherLease).toEqual({ changed: false, rateLimit: undefined });
      const served = await peer.finish(payment.paymentId, reserved.lease, true, now, buyer("198.51.100.5"));
      expect(served).toMatchObject({ changed: true, rateLimit: { remaining: 13, requiresPayment: false } });
      const again = await store.finish(payment.paymentId, reserved.lease, true, now, buyer("198.51.100.5"));
      expect(again).toEqual({ changed: false, rateLimit: undefined });
      expect(await store.view("198.51.100.5", now)).toMatchObject({ remaining: 13 });
      expect(await store.find(payment.paymentId, now)).toMatchObject({
        state: { kind: "served", signature: "sig-v" },
      });
      expect(await store.tryClaim(claimOf(payment, "sig-v", { binding: chatBinding }), now)).toBe(
        "payment-already-used",
      );
    });

    test("50 parallel finishes of one reservation with its grant: credited exactly once", async () => {
      const [store, peer] = open();
      const { payment, reserved } = await reserve(store, "sig-f");
      const finished = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? store : peer).finish(
            payment.paymentId,
            reserved.lease,
            true,
            now,
            buyer("198.51.100.6"),
          ),
        ),
      );
      expect(finished.filter((f) => f.changed)).toHaveLength(1);
      expect(await peer.view("198.51.100.6", now)).toMatchObject({ remaining: 13 });
    });

    test("an unserved finish releases the reservation to the same transaction and credits nothing", async () => {
      const [store, peer] = open();
      const { payment, reserved } = await reserve(store, "sig-u");
      const released = await store.finish(
        payment.paymentId,
        reserved.lease,
        false,
        now,
        buyer("198.51.100.7"),
      );
      expect(released).toEqual({ changed: true, rateLimit: undefined });
      expect(await peer.view("198.51.100.7", now)).toMatchObject({ remaining: 3 });
      expect(await peer.tryClaim(claimOf(payment, "sig-u2", { binding: chatBinding }), now)).toBe(
        "payment-already-used",
      );
      const retry = await peer.claim(claimOf(payment, "sig-u", { binding: chatBinding }), now);
      expect(retry.retry).toBe(true);
      expect(
        (await peer.finish(payment.paymentId, retry.lease, true, now, buyer("198.51.100.7"))).changed,
      ).toBe(true);
      expect(await store.view("198.51.100.7", now)).toMatchObject({ remaining: 13 });
    });

    test("a lapsed reservation: claimed again by the same transaction only; only the new lease credits", async () => {
      const [store, peer] = open();
      const past = now - LEASE_MS - 1;
      const { payment, reserved } = await reserve(store, "sig-l", past);
      expect(await peer.tryClaim(claimOf(payment, "sig-l2", { binding: chatBinding }), now)).toBe(
        "payment-already-used",
      );
      const again = await peer.claim(claimOf(payment, "sig-l", { binding: chatBinding }), now);
      expect(again.retry).toBe(true);
      const stale = await store.finish(payment.paymentId, reserved.lease, true, now, buyer("198.51.100.8"));
      expect(stale.changed).toBe(false);
      expect(await store.view("198.51.100.8", now)).toMatchObject({ remaining: 3 });
      expect(
        (await peer.finish(payment.paymentId, again.lease, true, now, buyer("198.51.100.8"))).changed,
      ).toBe(true);
      expect(await store.view("198.51.100.8", now)).toMatchObject({ remaining: 13 });
    });

    test("a settlement that timed out, its transfer presented later with a grant: credited once, then already used", async () => {
      const [store, peer] = open();
      const { payment, reserved } = await reserve(store, "sig-late");
      // The settlement timed out: the reservation is released to the same transaction.
      await store.finish(payment.paymentId, reserved.lease, false, now);
      const presented = claimOf(payment, "sig-late", { binding: chatBinding, grant: buyer("198.51.100.10") });
      const credited = await peer.claim(presented, now + 1_000);
      expect(credited).toMatchObject({ retry: true, rateLimit: { remaining: 13, paid: 10 } });
      expect(await store.find(payment.paymentId, now + 1_000)).toMatchObject({
        state: { kind: "served", signature: "sig-late" },
      });
      expect(await store.tryClaim(presented, now + 2_000)).toBe("payment-already-used");
      expect(await store.view("198.51.100.10", now + 2_000)).toMatchObject({ remaining: 13 });
    });

    test("a lapsed reservation presented with a grant is credited once, by the retry", async () => {
      const [store, peer] = open();
      const { payment } = await reserve(store, "sig-lapse");
      const later = now + LEASE_MS;
      const presented = claimOf(payment, "sig-lapse", {
        binding: chatBinding,
        grant: buyer("198.51.100.11"),
      });
      expect(await peer.claim(presented, later)).toMatchObject({ retry: true, rateLimit: { remaining: 13 } });
      expect(await peer.tryClaim(presented, later)).toBe("payment-already-used");
      expect(await store.view("198.51.100.11", later)).toMatchObject({ remaining: 13 });
    });

    test("a record is forgotten by the caller's clock: an open one after the grace, a claimed one after a day", async () => {
      const [store, peer] = open();
      const payment = issued();
      await store.issue(payment, now);
      const gone = payment.expiresAt + SETTLE_GRACE_MS;
      expect(await peer.find(payment.paymentId, gone - 1)).toBeDefined();
      expect(await peer.find(payment.paymentId, gone)).toBeUndefined();
      expect(await peer.tryClaim(claimOf(payment, "sig-gone"), gone)).toBe("payment-unknown");
      const kept = issued();
      await store.issue(kept, now);
      const claimed = await store.claim(claimOf(kept, "sig-kept"), now);
      const forgotten = now + CLAIM_RETENTION_MS;
      expect(await peer.find(kept.paymentId, forgotten - 1)).toMatchObject({ state: { kind: "claimed" } });
      expect(await peer.find(kept.paymentId, forgotten)).toBeUndefined();
      expect(await peer.finish(kept.paymentId, claimed.lease, true, forgotten)).toEqual({
        changed: false,
        rateLimit: undefined,
      });
      expect(await peer.tryClaim(claimOf(kept, "sig-kept"), forgotten)).toBe("payment-unknown");
    });

    test("a grant the payment rules cannot produce is a defect, nothing finished", async () => {
      const [store] = open();
      const { payment, reserved } = await reserve(store, "sig-d");
      for (const queries of [0, -1, 1.5, Number.NaN]) {
        const finish = PaymentRequests.use((r) =>
          r.finish(payment.paymentId, reserved.lease, true, now, { identity: "198.51.100.9", queries }),
        );
        expect(await store.outcome(finish)).toBe("defect");
      }
      expect(await store.find(payment.paymentId, now)).toMatchObject({ state: { kind: "claimed" } });
    });

    test("an open request is forgotten after its expiry plus the grace", async () => {
      const [store, peer] = open();
      const payment = issued({ expiresAt: Date.now() - SETTLE_GRACE_MS + 150 });
      await store.issue(payment, Date.now());
      expect(await peer.find(payment.paymentId, Date.now())).toBeDefined();
      await Bun.sleep(400);
      expect(await peer.find(payment.paymentId, Date.now())).toBeUndefined();
    });

    test("50 parallel claims of one payment with one transaction: exactly one success", async () => {
      const [store, peer] = open();
      const payment = issued();
      await store.issue(payment, now);
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? store : peer).tryClaim(claimOf(payment, "sig-race"), now),
        ),
      );
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "payment-already-used")).toHaveLength(49);
    });

    test("one transaction raced over 20 payments: it pays exactly one", async () => {
      const [store, peer] = open();
      const payments = Array.from({ length: 20 }, () => issued());
      for (const payment of payments) await store.issue(payment, now);
      const outcomes = await Promise.all(
        payments.map((payment, i) => (i % 2 === 0 ? store : peer).tryClaim(claimOf(payment, "sig-one"), now)),
      );
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "signature-already-used")).toHaveLength(19);
    });
  });

contract("memory", () => MemoryStore.layer(LIMITS), false);

if (redisServerAvailable()) {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());
  contract(
    "redis",
    (keyPrefix) => RedisStore.layer({ url: server?.url ?? "", limits: LIMITS, keyPrefix }),
    true,
  );
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  contract(
    "redis-cluster",
    (keyPrefix) => RedisStore.layer({ url: cluster.target(), limits: LIMITS, keyPrefix }),
    true,
  );

  describe("redis PaymentRequests: what it refuses to guess", () => {
    test("a payment request hash it did not write is StoreUnavailable, never a claim", async () => {
      const runtime = ManagedRuntime.make(
        RedisStore.layer({ url: server?.url ?? "", limits: LIMITS, keyPrefix: "odd:" }),
      );
      const { Redis } = await import("ioredis");
      const raw = new Redis(server?.url ?? "");
      await raw.hset("odd:x402:pay_corrupt1", { state: "open", resource: "/r" });
      const store = client(runtime);
      expect(
        await runtime.runPromiseExit(PaymentRequests.use((r) => r.find("pay_corrupt1", Date.now()))),
      ).toMatchObject({
        _tag: "Failure",
      });
      await raw.quit();
      expect(
        await store.tryClaim({ paymentId: "pay_corrupt1", binding, signature: "s", paidAt: 0 }, Date.now()),
      ).toBe("StoreUnavailable");
      await runtime.dispose();
    });
  });
}
