/**
 * PaymentRequests on Redis: issued x402 payment requests shared by every instance. `issue` is
 * one MULTI (the hash and its expiry together), `find` one HGETALL, `claim` and `finish` one
 * Lua script each (x402-lua.ts; a finish with a grant credits in its script), so two instances
 * racing on one header give one success. Every write waits for the replicas when
 * REDIS_WAIT_REPLICAS asks it to (replicated-claims.ts): a failover must forget neither an
 * issued request (its payment could not be claimed) nor a claim (it could be paid twice).
 */
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { checkGrant } from "../../../core/payments/grant-guard.ts";
import { PaymentRejected, PaymentRejectionReason } from "../../../core/payments/payment-rejected.ts";
import { SIGNATURE_MEMORY_MS } from "../../../core/payments/signature-ledger.ts";
import { claimInput } from "../../../core/payments/x402-claim.ts";
import {
  CLAIM_RETENTION_MS,
  type IssuedPayment,
  LEASE_MS,
  SETTLE_GRACE_MS,
} from "../../../core/payments/x402-ledger.ts";
import { PaymentRequests } from "../../../core/ports/payment-requests.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { QuotaLimits } from "../../../core/quota.ts";
import { newHoldId } from "../../shared/random-ids.ts";
import type { KeyLayout } from "../keys.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import type { ReplicatedClaims } from "../replicated-claims.ts";
import { toView } from "../replies.ts";
import type { StoreClient } from "../store-client.ts";
import { X402_CLAIM, X402_CLAIM_AND_GRANT, X402_FINISH, X402_SERVE_AND_GRANT } from "./x402-lua.ts";
import { decodePaymentHash, issuedFields } from "./x402-record.ts";

const SCRIPTS = {
  claim: luaScript(X402_CLAIM),
  claimAndGrant: luaScript(X402_CLAIM_AND_GRANT),
  finish: luaScript(X402_FINISH),
  serveAndGrant: luaScript(X402_SERVE_AND_GRANT),
};

/** The claim scripts' sealed-request arguments (x402-lua.ts): a flag, then the issued fields. */
const sealedArgs = (sealed: IssuedPayment | undefined): Array<string | number> =>
  sealed === undefined
    ? [0]
    : [
        1,
        sealed.nonce,
        sealed.resource,
        sealed.method,
        sealed.units.toString(),
        sealed.payTo,
        sealed.mint,
        sealed.network,
        sealed.expiresAt,
        sealed.description,
      ];

const malformed = () => new StoreUnavailable({ reason: "redis returned an unexpected reply" });
const isReason = Schema.is(PaymentRejectionReason);

/** {1, reason} | {0, retry[, ...view]} */
const decodeClaimReply = (reply: unknown, lease: string, granted: boolean) => {
  if (!Array.isArray(reply)) return Effect.fail(malformed());
  const [status, second] = reply;
  if (status === 1 && typeof second === "string" && isReason(second))
    return Effect.fail(new PaymentRejected({ reason: second }));
  if (status !== 0 || (second !== 0 && second !== 1)) return Effect.fail(malformed());
  const rateLimit = granted ? toView(reply, 2) : undefined;
  if (granted && rateLimit === undefined) return Effect.fail(malformed());
  return Effect.succeed({ lease, retry: second === 1, rateLimit });
};

/** {1, ...view} (served and credited now) | {0} (not this lease's claim: nothing credited) */
const decodeServeReply = (reply: unknown) => {
  if (Array.isArray(reply) && reply.length === 1 && reply[0] === 0)
    return Effect.succeed({ changed: false, rateLimit: undefined });
  const rateLimit = Array.isArray(reply) && reply[0] === 1 ? toView(reply, 1) : undefined;
  return rateLimit === undefined ? Effect.fail(malformed()) : Effect.succeed({ changed: true, rateLimit });
};

/** The port over one connection (reads) and the replicated writer (writes), and a key layout. */
export const makePaymentRequests = (
  client: StoreClient,
  replicated: ReplicatedClaims,
  keys: KeyLayout,
  limits: QuotaLimits,
) => {
  const writer = replicated.client;
  return PaymentRequests.of({
    issue: Effect.fn("RedisStore.issuePayment")(function* (issued, now) {
      const key = keys.payment(issued.paymentId);
      yield* replicated(() =>
        runCommand(() =>
          writer
            .multi()
            .hset(key, issuedFields(issued, now))
            .pexpireat(key, issued.expiresAt + SETTLE_GRACE_MS)
            .exec(),
        ),
      );
    }),
    find: Effect.fn("RedisStore.findPayment")(function* (paymentId, now) {
      const hash = yield* runCommand(() => client.hgetall(keys.payment(paymentId)));
      const record = decodePaymentHash(paymentId, hash, now);
      if (record === "corrupt") return yield* new StoreUnavailable({ reason: "corrupt payment request" });
      return record;
    }),
    claim: Effect.fn("RedisStore.claimPayment")(function* (claim, now) {
      yield* checkGrant(claim.grant);
      const lease = newHoldId();
      const input = claimInput(claim, lease);
      const args = [
        now,
        limits.freePerDay,
        limits.paidDailyCap,
        limits.holdTtlMs,
        input.binding.resource,
        input.binding.method,
        input.signature,
        input.paidAt,
        lease,
        now + LEASE_MS,
        input.served ? 1 : 0,
        SIGNATURE_MEMORY_MS,
        crypto.randomUUID(),
        input.identity,
        input.queries,
        CLAIM_RETENTION_MS,
        SETTLE_GRACE_MS,
        ...sealedArgs(claim.sealed),
        // Last, whatever the sealed fields' count: the script reads it as ARGV[#ARGV].
        input.acceptsLate === true ? 1 : 0,
      ];
      const paymentKey = keys.payment(claim.paymentId);
      const signatureKey = keys.signature(claim.signature);
      const reply = yield* replicated(() =>
        claim.grant === undefined
          ? runScript(writer, SCRIPTS.claim, [paymentKey, signatureKey], args)
          : runScript(
              writer,
              SCRIPTS.claimAndGrant,
              [keys.quota(claim.grant.identity), paymentKey, signatureKey],
              args,
            ),
      );
      return yield* decodeClaimReply(reply, lease, claim.grant !== undefined);
    }),
    finish: Effect.fn("RedisStore.finishPayment")(function* (paymentId, lease, served, now, grant) {
      yield* checkGrant(grant);
      const paymentKey = keys.payment(paymentId);
      if (!served || grant === undefined) {
        const changed = yield* replicated(() =>
          runScript(writer, SCRIPTS.finish, [paymentKey], [lease, served ? 1 : 0, CLAIM_RETENTION_MS, now]),
        );
        return { changed: changed === 1, rateLimit: undefined };
      }
      const reply = yield* replicated(() =>
        runScript(
          writer,
          SCRIPTS.serveAndGrant,
          [keys.quota(grant.identity), paymentKey],
          [
            now,
            limits.freePerDay,
            limits.paidDailyCap,
            limits.holdTtlMs,
            lease,
            CLAIM_RETENTION_MS,
            grant.queries,
          ],
        ),
      );
      return yield* decodeServeReply(reply);
    }),
  });
};
