/**
 * One truth for both stores: the same random command sequences run against the memory store
 * and a real Redis store side by side, and every result of each must equal the expected one of
 * an independent reference (store-reference.ts: plain maps and the rules, not the core
 * transitions the memory store runs), and so must the final state. A crash (a defect, an
 * outage, a plain Error) is a failure, never "equal". The commands cover the whole of what the
 * stores keep: the x402 ledger (issue, claim with and without a grant, finish served or not,
 * with the right lease or another, leases lapsing as the clock moves, retries), the signature
 * ledger (POST /api/payment's claim, the facilitator's markUsed, isClaimed), the quota
 * (reserve, commit, release, view), the settlement locks (acquire, release with and without
 * a cool-down, locks lapsing) and the pending settlements the reconciler follows (record,
 * replace, close by the recording lease only; its credits are the ledger's finish and claim),
 * and the sponsor's losses (each wallet's growing refusal, the hour's lost lamports); and on Redis no quota key may be left but the visitors'. Small
 * limits and a start just before midnight, so exhaustion, the cap, day rollovers and lapsing
 * holds all happen. Without redis-server the suite fails in CI and is skipped elsewhere.
 */
import { afterAll, beforeAll, test } from "bun:test";
import type * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import fc from "fast-check";
import { type KeyLayout, keyLayout } from "../../adapters/store-redis/keys.ts";
import { MAX_PENDING_SETTLEMENTS, type PendingSettlement } from "../../core/payments/pending-settlement.ts";
import { SETTLEMENT_COOL_DOWN_MS, SETTLEMENT_LOCK_MS } from "../../core/payments/settlement-locks.ts";
import { type IssuedPayment, LEASE_MS, SETTLE_GRACE_MS } from "../../core/payments/x402-ledger.ts";
import {
  type PaymentGrant,
  type PaymentRequestClaim,
  PaymentRequests,
} from "../../core/ports/payment-requests.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { SettlementLocks } from "../../core/ports/settlement-locks-store.ts";
import { SponsorLosses } from "../../core/ports/sponsor-losses-store.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import { DAY_MS } from "../../core/time.ts";
import { clusterForSuite, keysOnEveryNode } from "../support/redis-cluster.ts";
import { describeWithRedis, type RedisServer, rawClient, startRedisServer } from "../support/redis-server.ts";
import { openPair, type PairStores, type StorePair } from "../support/store-pair.ts";
import { type Expected, type ReferenceStore, referenceStore } from "./store-reference.ts";

const limitsArbitrary = fc.record({
  freePerDay: fc.integer({ min: 0, max: 3 }),
  paidDailyCap: fc.integer({ min: 1, max: 8 }),
  holdTtlMs: fc.constantFrom(1_000, 30_000),
});
/** Two minutes before midnight: holds and leases often span the day change. */
const START = Date.UTC(2030, 0, 15, 23, 58);
const IDENTITIES = ["x", "y"];
const SIGNATURES = ["s1", "s2", "s3"];
const CHAT = { resource: "/api/chat", method: "POST" };
const PREMIUM = { resource: "/premium-data", method: "GET" };
/** A payer's lock keys (its wallet, its source token account): two payers, one sharing a source. */
const LOCK_KEYS = [
  ["payer:A", "source:a"],
  ["payer:A", "source:b"],
  ["payer:B", "source:b"],
] as const;
const HOLDERS = ["t1", "t2", "t3"];

interface Model {
  readonly limits: QuotaLimits;
  /** What every command should give, kept apart from both stores. */
  readonly ref: ReferenceStore;
  now: number;
  readonly payments: IssuedPayment[];
  /** Each lease slot's payment and the transaction that claimed it. */
  readonly leases: Array<{ readonly paymentId: string; readonly signature: string }>;
  /** Each hold slot's identity. */
  readonly holds: string[];
}
type Command = fc.AsyncCommand<Model, StorePair>;

/**
 * Runs the command on both stores and requires each result to be the expected one; names the
 * ids a success handed out (`idOf`) first, so they compare by slot. A crash on either side
 * fails at once, whatever the other did.
 */
const agree = async <A, E>(
  pair: StorePair,
  label: string,
  make: (side: 0 | 1) => Effect.Effect<A, E, PairStores>,
  expected: Expected,
  idOf?: (value: A) => string,
  slot?: string,
) => {
  const exits = await pair.both(make);
  const [memory, redis] = exits;
  if (idOf !== undefined && slot !== undefined && Exit.isSuccess(memory) && Exit.isSuccess(redis))
    pair.name(slot, [idOf(memory.value), idOf(redis.value)]);
  const results = [pair.settle(0, memory), pair.settle(1, redis)] as const;
  for (const [side, result] of [
    ["memory", results[0]],
    ["redis", results[1]],
  ] as const) {
    if ("crash" in result) throw new Error(`${label}: the ${side} store crashed: ${result.crash}`);
    if (!Bun.deepEquals(result, expected))
      throw new Error(`${label}: ${side} ${JSON.stringify(result)} != expected ${JSON.stringify(expected)}`);
  }
  return "ok" in expected;
};

const command = (label: string, run: (m: Model, pair: StorePair) => Promise<unknown>): Command => ({
  check: () => true,
  run: async (m, pair) => {
    await run(m, pair);
  },
  toString: () => label,
});

const pick = <T>(items: ReadonlyArray<T>, index: number): T | undefined =>
  items[index % Math.max(1, items.length)];
const paymentId = (m: Model, index: number) => pick(m.payments, index)?.paymentId ?? "pay_never_issued";
// As often without a grant (a reservation, x402 v2 on /api/chat) as with one.
const grantArbitrary: fc.Arbitrary<PaymentGrant | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ identity: fc.constantFrom(...IDENTITIES), queries: fc.integer({ min: 1, max: 4 }) }),
);
const grantLabel = (grant: PaymentGrant | undefined) =>
  grant === undefined ? "" : `, grant ${grant.identity} ${grant.queries}`;

/** Claims a payment with a transaction; a success opens a lease slot. */
const claimWith = (
  m: Model,
  pair: StorePair,
  issued: IssuedPayment | undefined,
  claim: Omit<PaymentRequestClaim, "paymentId"> & { readonly paymentId?: string },
) => {
  const paymentId = claim.paymentId ?? issued?.paymentId ?? "pay_never_issued";
  const full = { ...claim, paymentId };
  const slot = `lease#${m.leases.length}`;
  return agree(
    pair,
    "claim",
    () => PaymentRequests.use((r) => r.claim(full, m.now)),
    m.ref.claim(full, m.now, slot),
    (claimed) => claimed.lease,
    slot,
  ).then((ok) => ok && m.leases.push({ paymentId, signature: claim.signature }));
};

const issue = fc.tuple(fc.boolean(), fc.constantFrom(60_000, 300_000)).map(([chat, ttl]) =>
  command(`issue(${chat ? "chat" : "premium"}, ${ttl})`, (m, pair) => {
    const issued: IssuedPayment = {
      paymentId: `pay_${m.payments.length}`,
      nonce: `nonce_${m.payments.length}`,
      ...(chat ? CHAT : PREMIUM),
      units: 10_000n,
      payTo: "Wallet1111111111111111111111111111111111111",
      mint: "Mint11111111111111111111111111111111111111",
      network: "chain-devnet",
      expiresAt: m.now + ttl,
      description: "a | description",
    };
    m.payments.push(issued);
    return agree(
      pair,
      "issue",
      () => PaymentRequests.use((r) => r.issue(issued, m.now)),
      m.ref.issue(issued, m.now),
    );
  }),
);

const claimPayment = fc
  .record({
    payment: fc.nat(),
    signature: fc.constantFrom(...SIGNATURES),
    // Mostly the request's own binding and a transfer in time, so the claims get somewhere.
    elsewhere: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    late: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    grant: grantArbitrary,
  })
  .map(({ payment, signature, elsewhere, late, grant }) =>
    command(
      `claim(#${payment}, ${signature}${elsewhere ? ", elsewhere" : ""}${late ? ", late" : ""}${grantLabel(grant)})`,
      (m, pair) => {
        const issued = pick(m.payments, payment);
        const binding = elsewhere || issued === undefined ? { resource: "/other", method: "GET" } : issued;
        return claimWith(m, pair, issued, {
          binding: { resource: binding.resource, method: binding.method },
          signature,
          paidAt: late && issued !== undefined ? issued.expiresAt + 1 : m.now - 1_000,
          ...(grant === undefined ? {} : { grant }),
        });
      },
    ),
  );

/**
 * The payer presents a transaction again for the payment it claimed before (a lost response, a
 * settlement that timed out, a transfer that landed late), with or without a grant.
 */
const presentAgain = fc.record({ lease: fc.nat(), grant: grantArbitrary }).map(({ lease, grant }) =>
  command(`presentAgain(lease#${lease}${grantLabel(grant)})`, (m, pair) => {
    const earlier = pick(m.leases, lease);
    const issued = m.payments.find((payment) => payment.paymentId === earlier?.paymentId);
    return claimWith(m, pair, issued, {
      binding: { resource: issued?.resource ?? "/other", method: issued?.method ?? "GET" },
      signature: earlier?.signature ?? "s-never",
      paidAt: m.now - 1_000,
      ...(grant === undefined ? {} : { grant }),
    });
  }),
);

const finish = fc
  .record({
    lease: fc.nat(),
    // Now and then another payment than the lease's, so foreign leases are tried too.
    payment: fc.option(fc.nat(), { freq: 5, nil: undefined }),
    served: fc.boolean(),
    grant: grantArbitrary,
  })
  .map(({ lease, payment, served, grant }) =>
    command(
      `finish(lease#${lease}${payment === undefined ? "" : `, #${payment}`}, ${served ? "served" : "unserved"}${grantLabel(grant)})`,
      (m, pair) => {
        const index = lease % Math.max(1, m.leases.length);
        const slot = m.leases.length === 0 ? undefined : `lease#${index}`;
        const id =
          payment === undefined ? (m.leases[index]?.paymentId ?? paymentId(m, 0)) : paymentId(m, payment);
        return agree(
          pair,
          "finish",
          (side) => PaymentRequests.use((r) => r.finish(id, pair.idOf(side, slot), served, m.now, grant)),
          m.ref.finish(id, slot ?? "never-issued", served, m.now, grant),
        );
      },
    ),
  );

const find = fc
  .nat()
  .map((payment) =>
    command(`find(#${payment})`, (m, pair) =>
      agree(
        pair,
        "find",
        () => PaymentRequests.use((r) => r.find(paymentId(m, payment), m.now)),
        m.ref.find(paymentId(m, payment), m.now),
      ),
    ),
  );

const claimSignature = fc
  .tuple(fc.constantFrom(...SIGNATURES), fc.constantFrom(...IDENTITIES), fc.integer({ min: 1, max: 4 }))
  .map(([signature, identity, queries]) =>
    command(`claimSignature(${signature}, ${identity}, ${queries})`, (m, pair) =>
      agree(
        pair,
        "claimSignature",
        () => PaymentStore.use((p) => p.claim(signature, identity, queries, m.now)),
        m.ref.claimSignature(signature, identity, queries, m.now),
      ),
    ),
  );

/** A settlement for another server (the facilitator): the signature used, no one credited. */
const markUsed = fc
  .constantFrom(...SIGNATURES)
  .map((signature) =>
    command(`markUsed(${signature})`, (m, pair) =>
      agree(
        pair,
        "markUsed",
        () => PaymentStore.use((p) => p.markUsed(signature, `x402-facilitator:${signature}`, m.now)),
        m.ref.markUsed(signature, m.now),
      ),
    ),
  );

const isClaimed = fc
  .constantFrom(...SIGNATURES)
  .map((signature) =>
    command(`isClaimed(${signature})`, (m, pair) =>
      agree(
        pair,
        "isClaimed",
        () => PaymentStore.use((p) => p.isClaimed(signature, m.now)),
        m.ref.isClaimed(signature, m.now),
      ),
    ),
  );

const reserve = fc.constantFrom(...IDENTITIES).map((identity) =>
  command(`reserve(${identity})`, (m, pair) => {
    const slot = `hold#${m.holds.length}`;
    return agree(
      pair,
      "reserve",
      () => QuotaStore.use((q) => q.reserve(identity, m.now)),
      m.ref.reserve(identity, m.now, slot),
      (reserved) => reserved.hold.id,
      slot,
    ).then((ok) => ok && m.holds.push(identity));
  }),
);

const settleHold = fc
  .tuple(fc.constantFrom("commit" as const, "release" as const), fc.nat())
  .map(([kind, hold]) =>
    command(`${kind}(hold#${hold})`, (m, pair) => {
      const index = hold % Math.max(1, m.holds.length);
      const slot = m.holds.length === 0 ? undefined : `hold#${index}`;
      const identity = m.holds[index] ?? "x";
      return agree(
        pair,
        kind,
        (side) => QuotaStore.use((q) => q[kind](identity, pair.idOf(side, slot), m.now)),
        m.ref[kind](identity, slot ?? "never-issued", m.now),
      );
    }),
  );

const view = fc
  .constantFrom(...IDENTITIES)
  .map((identity) =>
    command(`view(${identity})`, (m, pair) =>
      agree(pair, "view", () => QuotaStore.use((q) => q.view(identity, m.now)), m.ref.view(identity, m.now)),
    ),
  );

/** A settlement takes its payer's locks (SETTLEMENT_LOCK_MS), as settlement-guard.ts does. */
const acquireLocks = fc
  .tuple(fc.integer({ min: 0, max: LOCK_KEYS.length - 1 }), fc.constantFrom(...HOLDERS))
  .map(([set, holder]) =>
    command(`acquire(${LOCK_KEYS[set]?.join("+")}, ${holder})`, (m, pair) => {
      const keys = LOCK_KEYS[set] ?? [];
      return agree(
        pair,
        "acquire",
        () => SettlementLocks.use((l) => l.acquire(keys, holder, m.now, SETTLEMENT_LOCK_MS)),
        m.ref.acquire(keys, holder, m.now, SETTLEMENT_LOCK_MS),
      );
    }),
  );

/** Lets them go: at once after a success, or held for the cool-down after a failure on chain. */
const releaseLocks = fc
  .tuple(
    fc.integer({ min: 0, max: LOCK_KEYS.length - 1 }),
    fc.constantFrom(...HOLDERS),
    fc.constantFrom(0, SETTLEMENT_COOL_DOWN_MS),
  )
  .map(([set, holder, coolDown]) =>
    command(`releaseLocks(${LOCK_KEYS[set]?.join("+")}, ${holder}, ${coolDown})`, (m, pair) => {
      const keys = LOCK_KEYS[set] ?? [];
      return agree(
        pair,
        "releaseLocks",
        () => SettlementLocks.use((l) => l.release(keys, holder, m.now, coolDown)),
        m.ref.releaseLocks(keys, holder, m.now, coolDown),
      );
    }),
  );

/** A settlement recorded as pending before it is sent (pending-record.ts), by one claim's lease or another's. */
const PENDING_LEASES = ["l1", "l2"];
const recordPending = fc
  .tuple(
    fc.constantFrom(...SIGNATURES),
    fc.constantFrom(...PENDING_LEASES),
    fc.constantFrom("credit", "paywall"),
  )
  .map(([signature, lease, kind]) =>
    command(`recordPending(${signature}, ${lease}, ${kind})`, (m, pair) => {
      const entry: PendingSettlement = {
        signature,
        kind: kind as PendingSettlement["kind"],
        paymentId: "pay_1",
        lease,
        resource: CHAT.resource,
        method: CHAT.method,
        identity: "wallet:W",
        queries: 10,
        payer: "W",
        blockhash: "B",
        since: m.now,
      };
      return agree(
        pair,
        "recordPending",
        () => PendingSettlements.use((p) => p.record(entry)),
        m.ref.recordPending(entry, MAX_PENDING_SETTLEMENTS),
      );
    }),
  );

/** Closed by whoever learnt its outcome: only the lease that recorded it closes it. */
const closePending = fc
  .tuple(fc.constantFrom(...SIGNATURES), fc.constantFrom(...PENDING_LEASES))
  .map(([signature, lease]) =>
    command(`closePending(${signature}, ${lease})`, (m, pair) =>
      agree(
        pair,
        "closePending",
        () => PendingSettlements.use((p) => p.close(signature, lease)),
        m.ref.closePending(signature, lease),
      ),
    ),
  );

/** A sponsored transaction failed on chain: the payer's strike and the hour's losses. */
const PAYERS = ["A", "B"];
const recordLoss = fc
  .tuple(fc.constantFrom(...PAYERS), fc.constantFrom(10_001, 15_000))
  .map(([wallet, lamports]) =>
    command(`recordLoss(${wallet}, ${lamports})`, (m, pair) =>
      agree(
        pair,
        "recordLoss",
        () => SponsorLosses.use((l) => l.recordLoss(wallet, lamports, m.now)),
        m.ref.recordLoss(wallet, lamports, m.now),
      ),
    ),
  );

const sponsorStanding = fc
  .constantFrom(...PAYERS)
  .map((wallet) =>
    command(`sponsorStanding(${wallet})`, (m, pair) =>
      agree(
        pair,
        "sponsorStanding",
        () => SponsorLosses.use((l) => l.standing(wallet, m.now)),
        m.ref.sponsorStanding(wallet, m.now),
      ),
    ),
  );

const advance = fc
  .constantFrom(
    1_000,
    SETTLEMENT_COOL_DOWN_MS,
    600_000,
    3_600_000,
    30_000,
    LEASE_MS,
    300_000,
    SETTLE_GRACE_MS,
    DAY_MS,
    31 * DAY_MS,
  )
  .map((ms) =>
    command(`advance(${ms})`, async (m) => {
      m.now += ms;
    }),
  );

const commands = [
  issue,
  issue,
  claimPayment,
  claimPayment,
  presentAgain,
  presentAgain,
  finish,
  finish,
  find,
  claimSignature,
  markUsed,
  isClaimed,
  reserve,
  settleHold,
  view,
  acquireLocks,
  acquireLocks,
  releaseLocks,
  recordPending,
  closePending,
  recordLoss,
  sponsorStanding,
  advance,
];

/**
 * The final state, read through every port on both stores: views, payment records, used
 * signatures, and the locks (an acquire by a holder no command uses shows each set free or not).
 */
const finalState = async (m: Model, pair: StorePair) => {
  for (const identity of IDENTITIES)
    await agree(
      pair,
      `final view(${identity})`,
      () => QuotaStore.use((q) => q.view(identity, m.now)),
      m.ref.view(identity, m.now),
    );
  for (const { paymentId } of m.payments)
    await agree(
      pair,
      `final find(${paymentId})`,
      () => PaymentRequests.use((r) => r.find(paymentId, m.now)),
      m.ref.find(paymentId, m.now),
    );
  for (const signature of SIGNATURES)
    await agree(
      pair,
      `final isClaimed(${signature})`,
      () => PaymentStore.use((p) => p.isClaimed(signature, m.now)),
      m.ref.isClaimed(signature, m.now),
    );
  for (const signature of SIGNATURES)
    await agree(
      pair,
      `final findPending(${signature})`,
      () => PendingSettlements.use((p) => p.find(signature)),
      m.ref.findPending(signature),
    );
  for (const keys of LOCK_KEYS)
    await agree(
      pair,
      `final acquire(${keys.join("+")})`,
      () => SettlementLocks.use((l) => l.acquire(keys, "t-final", m.now, SETTLEMENT_LOCK_MS)),
      m.ref.acquire(keys, "t-final", m.now, SETTLEMENT_LOCK_MS),
    );
};

/** On Redis, quota keys exist only for the identities the commands credit or charge: none are left behind. */
const noStrayQuotaKeys = async (keys: ReadonlyArray<string>, layout: KeyLayout) => {
  const allowed = new Set(IDENTITIES.map((identity) => layout.quota(identity)));
  const stray = keys.filter((key) => !allowed.has(key));
  if (stray.length > 0) throw new Error(`quota keys left behind on Redis: ${stray.join(", ")}`);
};

/** The quota keys of a pair's namespace on one server. */
const quotaKeysOn = async (url: string, pair: StorePair) => {
  const raw = rawClient(url);
  try {
    return await raw.keys(`${pair.prefix}quota:*`);
  } finally {
    raw.disconnect();
  }
};

/**
 * One run of the property: the commands on a fresh pair of stores (`open`) and the model, then
 * the final state and no stray quota key (`noStrayKeys`); the pair is disposed either way.
 */
const runOn =
  (open: (limits: QuotaLimits) => StorePair, noStrayKeys: (pair: StorePair) => Promise<void>) =>
  async (limits: QuotaLimits, cmds: Iterable<Command>) => {
    const pair = open(limits);
    const model: Model = {
      limits,
      ref: referenceStore(limits),
      now: START,
      payments: [],
      leases: [],
      holds: [],
    };
    try {
      await fc.asyncModelRun(() => ({ model, real: pair }), cmds);
      await finalState(model, pair);
      await noStrayKeys(pair);
    } finally {
      await pair.dispose();
    }
  };

describeWithRedis("memory and Redis stores agree", () => {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());

  test("the same command sequences give the expected results and the expected final state on both", async () => {
    const url = server?.url ?? "";
    await fc.assert(
      fc.asyncProperty(
        limitsArbitrary,
        fc.commands(commands, { maxCommands: 40, size: "max" }),
        runOn(
          (limits) => openPair(url, limits),
          async (pair) => noStrayQuotaKeys(await quotaKeysOn(url, pair), keyLayout(pair.prefix)),
        ),
      ),
      { numRuns: 150 },
    );
  }, 60_000);
});

describeWithRedis("memory and Redis Cluster stores agree", () => {
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);

  test("the same command sequences give the expected results and the expected final state on both", async () => {
    await fc.assert(
      fc.asyncProperty(
        limitsArbitrary,
        fc.commands(commands, { maxCommands: 40, size: "max" }),
        runOn(
          (limits) => openPair(cluster.target(), limits),
          // The quota keys carry the money hash tag on a cluster (keys.ts), on whichever primary holds it.
          async (pair) => {
            const layout = keyLayout(pair.prefix, pair.prefix, true);
            await noStrayQuotaKeys(await keysOnEveryNode(cluster.setup(), `${layout.quota("")}*`), layout);
          },
        ),
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});
