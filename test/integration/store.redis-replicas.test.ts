/**
 * Claims that wait for replicas (REDIS_WAIT_REPLICAS), on a real primary and a real replica
 * started on loopback. Replication is asynchronous: a claim acknowledged while no replica holds
 * it could be forgotten by a failover and the signature granted again. With the setting, such
 * a claim fails (StoreUnavailable, a 503 the client retries) instead of succeeding unreplicated;
 * without it, the same situation is acknowledged, which is what the setting is for.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Cause from "effect/Cause";
import * as Exit from "effect/Exit";
import * as ManagedRuntime from "effect/ManagedRuntime";
import type { Redis } from "ioredis";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { IssuedPayment } from "../../core/payments/x402-ledger.ts";
import { PaidResults } from "../../core/ports/paid-results.ts";
import { type PaymentRequestClaim, PaymentRequests } from "../../core/ports/payment-requests.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import type { QuotaStore } from "../../core/ports/quota-store.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { waitFor } from "../support/free-port.ts";
import {
  type RedisServer,
  rawClient,
  redisServerAvailable,
  startRedisServer,
} from "../support/redis-server.ts";
import { pendingSettlement, STORE_LIMITS, T0 } from "../support/store-fixtures.ts";
import { issuedPayment } from "../support/x402-samples.ts";

const WAIT_MS = 1000;

type Runtime = ManagedRuntime.ManagedRuntime<
  | QuotaStore
  | PaymentStore
  | PaymentRequests
  | PaidResults
  | PendingSettlements
  | UnattributedPayments
  | WalletSessions,
  unknown
>;

describe.skipIf(!redisServerAvailable())("claims on a primary with a replica", () => {
  let primary: RedisServer;
  let replica: RedisServer;
  let onReplica: Redis;
  let waiting: Runtime;
  let notWaiting: Runtime;

  /** Whether the primary sees its replica online and acknowledging writes. */
  const replicaInSync = async () => {
    const client = rawClient(primary.url);
    try {
      const info = await client.info("replication");
      if (!/slave0:.*state=online/.test(info)) return false;
      await client.set("warm-up", "1");
      return (await client.wait(1, 200)) === 1;
    } finally {
      client.disconnect();
    }
  };
  const claim = (runtime: Runtime, signature: string) =>
    runtime.runPromiseExit(PaymentStore.use((store) => store.claim(signature, "client-a", 10, T0)));
  const onReplicaNow = (signature: string) => onReplica.get(`docs-chat:sig:${signature}`);
  /** An x402 payment request of its own id, issued and then claimed by `signature` (the HTTP 402 path). */
  const issued = (paymentId: string): IssuedPayment => ({ ...issuedPayment(T0 + 60_000), paymentId });
  const issue = (runtime: Runtime, payment: IssuedPayment) =>
    runtime.runPromiseExit(PaymentRequests.use((requests) => requests.issue(payment, T0)));
  /** The claim of `payment` by `signature`; with a grant it credits queries (the HTTP 402 chat), without it it reserves. */
  const claimOf = (payment: IssuedPayment, signature: string, grant?: PaymentRequestClaim["grant"]) =>
    PaymentRequests.use((requests) =>
      requests.claim(
        {
          paymentId: payment.paymentId,
          binding: { resource: payment.resource, method: payment.method },
          signature,
          paidAt: T0,
          ...(grant === undefined ? {} : { grant }),
        },
        T0,
      ),
    );
  const claimRequest = (runtime: Runtime, payment: IssuedPayment, signature: string) =>
    runtime.runPromiseExit(claimOf(payment, signature, { identity: "client-a", queries: 100 }));
  const reserve = (runtime: Runtime, payment: IssuedPayment, signature: string) =>
    runtime.runPromise(claimOf(payment, signature));
  const finishWithGrant = (runtime: Runtime, payment: IssuedPayment, lease: string) =>
    runtime.runPromiseExit(
      PaymentRequests.use((requests) =>
        requests.finish(payment.paymentId, lease, true, T0, { identity: "client-a", queries: 100 }),
      ),
    );
  /** Reserved (x402 v2 chat: before settling) while the replica is up, credited during the outage. */
  const reservedEarly = issued("pay_reserved_0001");
  let reservedLease = "";
  const notReplicated = (exit: Exit.Exit<unknown, unknown>) => {
    expect(Exit.isFailure(exit)).toBe(true);
    if (Exit.isFailure(exit))
      expect(Cause.squash(exit.cause)).toMatchObject({
        _tag: "StoreUnavailable",
        reason: `claim held by 0 of 1 Redis replicas after ${WAIT_MS} ms`,
      });
  };

  beforeAll(async () => {
    // No delay before a full sync, so a restarted replica catches up at once.
    primary = await startRedisServer({ args: ["--repl-diskless-sync-delay", "0"] });
    replica = await startRedisServer({ args: ["--replicaof", "127.0.0.1", String(primary.port)] });
    await waitFor(replicaInSync, 10_000, "the replica to sync");
    onReplica = rawClient(replica.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await onReplica.connect();
    waiting = ManagedRuntime.make(
      RedisStore.layer({ url: primary.url, limits: STORE_LIMITS, waitReplicas: 1, waitTimeoutMs: WAIT_MS }),
    );
    notWaiting = ManagedRuntime.make(RedisStore.layer({ url: primary.url, limits: STORE_LIMITS }));
  }, 30_000);
  afterAll(async () => {
    onReplica?.disconnect();
    await replica?.down("SIGKILL"); // a replica shuts down slowly (it waits for its primary)
    await waiting?.dispose();
    await notWaiting?.dispose();
    await replica?.stop();
    await primary?.stop();
  });

  test("with the replica up, a claim is acknowledged once the replica holds it", async () => {
    expect(Exit.isSuccess(await claim(waiting, "sig-replicated"))).toBe(true);
    // Acknowledged means replicated: the replica has the record at that moment, no waiting.
    expect(await onReplicaNow("sig-replicated")).toStartWith(String(T0));
    // The HTTP 402 path too: the issued request and its claim (with the queries it buys).
    const payment = issued("pay_replicated_0001");
    expect(Exit.isSuccess(await issue(waiting, payment))).toBe(true);
    expect(await onReplica.exists(`docs-chat:x402:${payment.paymentId}`)).toBe(1);
    expect(Exit.isSuccess(await claimRequest(waiting, payment, "sig-x402-replicated"))).toBe(true);
    expect(await onReplicaNow("sig-x402-replicated")).not.toBeNull();
    expect(Exit.isSuccess(await issue(waiting, reservedEarly))).toBe(true);
    reservedLease = (await reserve(waiting, reservedEarly, "sig-x402-reserved")).lease;
  });

  test("with the replica stopped, a claim fails after the wait instead of succeeding unreplicated", async () => {
    onReplica.disconnect();
    await replica.down("SIGKILL"); // the replica dies
    const started = performance.now();
    const exit = await claim(waiting, "sig-during-outage");
    const tookMs = performance.now() - started;
    expect(Exit.isFailure(exit)).toBe(true);
    if (Exit.isFailure(exit))
      expect(Cause.squash(exit.cause)).toMatchObject({
        _tag: "StoreUnavailable",
        reason: `claim held by 0 of 1 Redis replicas after ${WAIT_MS} ms`,
      });
    expect(tookMs).toBeGreaterThanOrEqual(WAIT_MS - 20); // it did wait for the replica
    // The same outage without the setting: acknowledged with no replica holding it.
    expect(Exit.isSuccess(await claim(notWaiting, "sig-unreplicated"))).toBe(true);
  });

  test("with the replica stopped, HTTP 402 requests and their claims fail after the wait too", async () => {
    // Issued while the replica was down: a failover could forget it, and its payment could not be claimed.
    const payment = issued("pay_outage_000001");
    notReplicated(await issue(waiting, payment));
    // A claim (here one that credits queries) acknowledged unreplicated could be paid twice after a failover.
    notReplicated(await claimRequest(waiting, payment, "sig-x402-outage"));
    // The finish that credits the queries after settlement, too.
    notReplicated(await finishWithGrant(waiting, reservedEarly, reservedLease));
    const unwaited = issued("pay_unwaited_0001");
    expect(Exit.isSuccess(await issue(notWaiting, unwaited))).toBe(true);
    expect(Exit.isSuccess(await claimRequest(notWaiting, unwaited, "sig-x402-unwaited"))).toBe(true);
  });

  test("with the replica stopped, every other money write fails after the wait too", async () => {
    // The facilitator's mark of a signature it settled for another server.
    notReplicated(
      await waiting.runPromiseExit(
        PaymentStore.use((store) => store.markUsed("sig-marked-outage", "other", T0)),
      ),
    );
    // A paid result decides what a retry with the same payment identifier is served.
    const result = { digest: "d", status: 200, headers: {}, body: "{}", keptAt: T0 };
    notReplicated(
      await waiting.runPromiseExit(PaidResults.use((r) => r.keep("route:pay_outage", result, T0))),
    );
    // A settlement of unknown outcome: the reconciler credits the wallet from this record.
    const pending = pendingSettlement({
      signature: "sig-pending-outage",
      paymentId: "pay_pending_outage",
      lease: "lease-1",
      since: T0,
    });
    notReplicated(await waiting.runPromiseExit(PendingSettlements.use((p) => p.record(pending))));
    // A payment we cannot attribute: the owner refunds it from this list.
    const unattributed = {
      signature: "sig-unattributed-outage",
      payer: "Payer1111111111111111111111111111111111111",
      units: 12_345n,
      at: T0,
      reason: "memo-not-ours" as const,
      paymentId: "",
    };
    notReplicated(await waiting.runPromiseExit(UnattributedPayments.use((u) => u.record(unattributed, T0))));
    // A client's allowance on the credits its identity bought for a wallet.
    notReplicated(
      await waiting.runPromiseExit(
        WalletSessions.use((sessions) => sessions.link("client-a", "W", 100, T0 + 60_000, T0)),
      ),
    );
    // Without the setting, the same writes are acknowledged unreplicated.
    expect(
      Exit.isSuccess(
        await notWaiting.runPromiseExit(PaidResults.use((r) => r.keep("route:pay_unwaited", result, T0))),
      ),
    ).toBe(true);
  }, 30_000);

  test("the replica back and in sync: claims are acknowledged again", async () => {
    await replica.up();
    await waitFor(replicaInSync, 10_000, "the replica to sync again");
    await onReplica.connect();
    expect(Exit.isSuccess(await claim(waiting, "sig-after"))).toBe(true);
    expect(await onReplicaNow("sig-after")).toStartWith(String(T0));
  }, 30_000);
});
