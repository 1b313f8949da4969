/**
 * The expected result of every store command, written apart from the stores: plain maps and the
 * rules as docs/payments.md states them, in this file's own words, importing only constants and
 * types from core (never its transitions, which the memory store runs). The parity suite
 * (store-parity.model.test.ts) holds the memory store and the Redis store each against it, so
 * a rule both stores got wrong the same way is caught too. Results come in the suite's plain
 * form: `{ ok: value }` or `{ error: { _tag, ...fields } }`, bigints as "123n".
 */
import { SIGNATURE_MEMORY_MS } from "../../core/payments/signature-ledger.ts";
import {
  CLAIM_RETENTION_MS,
  type IssuedPayment,
  LATE_TRANSFER_GRACE_MS,
  LEASE_MS,
  SETTLE_GRACE_MS,
} from "../../core/payments/x402-ledger.ts";
import type { PaymentGrant } from "../../core/ports/payment-requests.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import { DAY_MS } from "../../core/time.ts";

export type Expected = { readonly ok: unknown } | { readonly error: Record<string, unknown> };

interface Hold {
  readonly slot: string;
  readonly bucket: "free" | "paid";
  readonly day: number;
  readonly expiresAt: number;
}
interface Quota {
  day: number;
  freeUsed: number;
  paidToday: number;
  credits: number;
  holds: Hold[];
}
type State =
  | { readonly kind: "open" }
  | {
      readonly kind: "claimed";
      readonly signature: string;
      readonly lease: string;
      readonly leaseUntil: number;
    }
  | { readonly kind: "unserved" | "served"; readonly signature: string };
interface Request {
  readonly issued: IssuedPayment;
  state: State;
  forgetAt: number;
}
interface Lock {
  readonly holder: string;
  readonly until: number;
  readonly cooling: boolean;
}

const dayOf = (now: number) => Math.floor(now / DAY_MS);
const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value ?? null, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)));
const ok = (value: unknown): Expected => ({ ok: plain(value) });
const rejected = (reason: string): Expected => ({ error: { _tag: "PaymentRejected", reason } });

export const referenceStore = (limits: QuotaLimits) => {
  const quotas = new Map<string, Quota>();
  /** signature -> when it was used. */
  const used = new Map<string, number>();
  const requests = new Map<string, Request>();
  const locks = new Map<string, Lock>();
  /** Sponsor losses: each wallet's strikes, and the lamports lost per UTC hour. */
  const strikes = new Map<string, { count: number; refusedUntil: number; lastAt: number }>();
  const lostPerHour = new Map<number, number>();
  /** Pending settlements: signature -> the entry (its lease decides who closes it). */
  const pending = new Map<string, { readonly lease: string; readonly entry: unknown }>();

  // --- quota: free per UTC day, paid credits kept, at most the cap of paid spent per day ---
  const quotaOf = (identity: string, now: number): Quota => {
    const today = dayOf(now);
    const quota = quotas.get(identity) ?? { day: today, freeUsed: 0, paidToday: 0, credits: 0, holds: [] };
    if (quota.day < today) Object.assign(quota, { day: today, freeUsed: 0, paidToday: 0 });
    quota.holds = quota.holds.filter((hold) => hold.expiresAt > now);
    return quota;
  };
  const held = (quota: Quota, bucket: "free" | "paid", today: boolean) =>
    quota.holds.filter((hold) => hold.bucket === bucket && (!today || hold.day === quota.day)).length;
  const left = (quota: Quota) => {
    const free = Math.max(0, limits.freePerDay - quota.freeUsed - held(quota, "free", true));
    const owned = Math.max(0, quota.credits - held(quota, "paid", false));
    const cap = Math.max(0, limits.paidDailyCap - quota.paidToday - held(quota, "paid", true));
    return { free, owned, paid: Math.min(owned, cap) };
  };
  const viewOf = (identity: string, now: number) => {
    const { free, owned, paid } = left(quotaOf(identity, now));
    return {
      remaining: free + paid,
      resetAt: (dayOf(now) + 1) * DAY_MS,
      requiresPayment: free === 0 && owned === 0,
      free,
      paid,
    };
  };
  /** Credits bought queries; the quota key exists only for identities credited or charged. */
  const credit = (identity: string, queries: number, now: number) => {
    const quota = quotaOf(identity, now);
    quota.credits += queries;
    quotas.set(identity, quota);
    return viewOf(identity, now);
  };
  const settleHold = (identity: string, slot: string, now: number, spend: boolean) => {
    const quota = quotaOf(identity, now);
    const hold = quota.holds.find((candidate) => candidate.slot === slot);
    if (hold !== undefined) {
      quota.holds = quota.holds.filter((candidate) => candidate !== hold);
      if (spend && hold.bucket === "free" && hold.day === quota.day) quota.freeUsed += 1;
      if (spend && hold.bucket === "paid") {
        quota.credits -= 1;
        if (hold.day === quota.day) quota.paidToday += 1;
      }
    }
    return ok(viewOf(identity, now));
  };

  // --- the signature ledger: a signature is used once, remembered SIGNATURE_MEMORY_MS ---
  const isUsed = (signature: string, now: number) => {
    const at = used.get(signature);
    return at !== undefined && now - at < SIGNATURE_MEMORY_MS;
  };

  // --- the x402 requests: open -> claimed (lease) -> served | unserved -> claimed again ---
  const live = (paymentId: string, now: number) => {
    const request = requests.get(paymentId);
    return request !== undefined && now < request.forgetAt ? request : undefined;
  };
  const keep = (request: Request, now: number) => {
    request.forgetAt =
      request.state.kind === "open" ? request.issued.expiresAt + SETTLE_GRACE_MS : now + CLAIM_RETENTION_MS;
  };

  return {
    view: (identity: string, now: number): Expected => ok(viewOf(identity, now)),
    /** A reserve; `slot` names the hold the store hands out. */
    reserve: (identity: string, now: number, slot: string): Expected => {
      const quota = quotaOf(identity, now);
      const { free, owned, paid } = left(quota);
      const resetAt = (dayOf(now) + 1) * DAY_MS;
      if (free === 0 && paid === 0)
        return { error: { _tag: owned > 0 ? "PaidDailyCapReached" : "QuotaExhausted", resetAt } };
      const hold: Hold = {
        slot,
        bucket: free > 0 ? "free" : "paid",
        day: quota.day,
        expiresAt: now + limits.holdTtlMs,
      };
      quota.holds.push(hold);
      quotas.set(identity, quota);
      const { slot: id, ...rest } = hold;
      return ok({ hold: { id, ...rest }, view: viewOf(identity, now) });
    },
    commit: (identity: string, slot: string, now: number) => settleHold(identity, slot, now, true),
    release: (identity: string, slot: string, now: number) => settleHold(identity, slot, now, false),

    claimSignature: (signature: string, identity: string, queries: number, now: number): Expected => {
      if (isUsed(signature, now)) return { error: { _tag: "AlreadyClaimed" } };
      used.set(signature, now);
      return ok(credit(identity, queries, now));
    },
    markUsed: (signature: string, now: number): Expected => {
      if (isUsed(signature, now)) return { error: { _tag: "AlreadyClaimed" } };
      used.set(signature, now);
      return ok(undefined);
    },
    isClaimed: (signature: string, now: number): Expected => ok(isUsed(signature, now)),

    issue: (issued: IssuedPayment, now: number): Expected => {
      const request: Request = { issued, state: { kind: "open" }, forgetAt: 0 };
      keep(request, now);
      requests.set(issued.paymentId, request);
      return ok(undefined);
    },
    find: (paymentId: string, now: number): Expected => {
      const request = live(paymentId, now);
      return ok(request === undefined ? undefined : { issued: request.issued, state: request.state });
    },
    /** A claim; `lease` names the lease the store hands out. */
    claim: (
      claim: {
        readonly paymentId: string;
        readonly binding: { readonly resource: string; readonly method: string };
        readonly signature: string;
        readonly paidAt: number;
        readonly grant?: PaymentGrant;
      },
      now: number,
      lease: string,
    ): Expected => {
      const request = live(claim.paymentId, now);
      if (request === undefined) return rejected("payment-unknown");
      const { issued, state } = request;
      if (issued.resource !== claim.binding.resource || issued.method !== claim.binding.method)
        return rejected("payment-other-resource");
      let retry = false;
      if (state.kind === "open") {
        if (now >= issued.expiresAt + SETTLE_GRACE_MS) return rejected("payment-expired");
      } else {
        const again =
          state.signature === claim.signature &&
          (state.kind === "unserved" || (state.kind === "claimed" && state.leaseUntil <= now));
        if (!again) return rejected("payment-already-used");
        retry = true;
      }
      if (!retry) {
        if (claim.paidAt > issued.expiresAt + LATE_TRANSFER_GRACE_MS) return rejected("payment-expired");
        if (isUsed(claim.signature, now)) return rejected("signature-already-used");
        used.set(claim.signature, now);
      }
      request.state =
        claim.grant === undefined
          ? { kind: "claimed", signature: claim.signature, lease, leaseUntil: now + LEASE_MS }
          : { kind: "served", signature: claim.signature };
      keep(request, now);
      const rateLimit =
        claim.grant === undefined ? undefined : credit(claim.grant.identity, claim.grant.queries, now);
      return ok({ lease, retry, rateLimit });
    },
    finish: (
      paymentId: string,
      lease: string,
      served: boolean,
      now: number,
      grant: PaymentGrant | undefined,
    ): Expected => {
      const request = live(paymentId, now);
      const state = request?.state;
      if (request === undefined || state?.kind !== "claimed" || state.lease !== lease)
        return ok({ changed: false, rateLimit: undefined });
      request.state = { kind: served ? "served" : "unserved", signature: state.signature };
      keep(request, now);
      const rateLimit =
        served && grant !== undefined ? credit(grant.identity, grant.queries, now) : undefined;
      return ok({ changed: true, rateLimit });
    },

    // --- settlement locks: one holder per key until it lapses; a cool-down only its holder passes ---
    acquire: (keys: ReadonlyArray<string>, holder: string, now: number, ttlMs: number): Expected => {
      const found = keys
        .map((key) => locks.get(key))
        .filter((lock) => lock !== undefined && lock.until > now);
      if (found.some((lock) => lock?.holder !== holder)) return ok("held-by-other");
      if (found.some((lock) => lock?.cooling === false)) return ok("held-by-holder");
      for (const key of keys) locks.set(key, { holder, until: now + ttlMs, cooling: false });
      return ok("acquired");
    },
    releaseLocks: (
      keys: ReadonlyArray<string>,
      holder: string,
      now: number,
      coolDownMs: number,
    ): Expected => {
      for (const key of keys) {
        const lock = locks.get(key);
        if (lock === undefined || lock.until <= now) locks.delete(key);
        else if (lock.holder === holder) {
          if (coolDownMs > 0) locks.set(key, { holder, until: now + coolDownMs, cooling: true });
          else locks.delete(key);
        }
      }
      return ok(undefined);
    },

    // --- sponsor losses: 10 min, 1 h, 6 h, then 24 h refusals; strikes forgotten a week after the last ---
    sponsorStanding: (wallet: string, now: number): Expected => {
      const record = strikes.get(wallet);
      const live = record !== undefined && now - record.lastAt < 7 * DAY_MS;
      return ok({
        refusedUntil: live ? record.refusedUntil : 0,
        lostThisHour: lostPerHour.get(Math.floor(now / 3_600_000)) ?? 0,
      });
    },
    recordLoss: (wallet: string, lamports: number, now: number): Expected => {
      const record = strikes.get(wallet);
      const count = (record !== undefined && now - record.lastAt < 7 * DAY_MS ? record.count : 0) + 1;
      const refusals = [600_000, 3_600_000, 21_600_000, 86_400_000];
      const refusedUntil = now + (refusals[Math.min(count, 4) - 1] ?? 0);
      strikes.set(wallet, { count, refusedUntil, lastAt: now });
      const hour = Math.floor(now / 3_600_000);
      lostPerHour.set(hour, (lostPerHour.get(hour) ?? 0) + lamports);
      return ok({ refusedUntil, lostThisHour: lostPerHour.get(hour) });
    },

    // --- pending settlements: one entry per signature, replaced by a new record, closed only by its lease ---
    recordPending: (entry: { readonly signature: string; readonly lease: string }, max: number): Expected => {
      if (!pending.has(entry.signature) && pending.size >= max) return ok(false);
      pending.set(entry.signature, { lease: entry.lease, entry });
      return ok(true);
    },
    findPending: (signature: string): Expected => ok(pending.get(signature)?.entry),
    closePending: (signature: string, lease: string): Expected => {
      if (pending.get(signature)?.lease !== lease) return ok(false);
      pending.delete(signature);
      return ok(true);
    },

    /** Identities with quota state (the Redis store may keep a key for these only). */
    creditedOrCharged: () => [...quotas.keys()],
  };
};

export type ReferenceStore = ReturnType<typeof referenceStore>;
