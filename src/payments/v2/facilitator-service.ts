/**
 * Our facilitator for other x402 servers (POST /x402/verify, POST /x402/settle, GET
 * /x402/supported, the x402 v2 shapes). Their payment requirements are the terms, within what
 * we sponsor (facilitator-terms.ts: an allow-listed payTo, a minimum amount): the same
 * transaction rules as our own routes (exact-transaction.ts), any memo allowed (it is theirs),
 * co-signed and simulated. Settling claims the transaction id in the shared payment store
 * first (one atomic step across instances: the official package keeps only a per-process
 * duplicate cache), then submits and waits for confirmation; a claimed transaction is never
 * submitted twice by us, and a failed settlement needs a new payment. One whose outcome is not
 * known in the wait is answered `settlement_pending` (x402's non-terminal result) and recorded;
 * settling the same payload again later reads its fate: success once it has landed (to one
 * caller), a failure if it never will, pending meanwhile. Nothing is sent a second time.
 */
import type { Address } from "@solana/kit";
import { PaymentPayloadV2Schema, PaymentRequirementsV2Schema } from "@x402/core/schemas";
import type { SettleResponse, SupportedResponse, VerifyResponse } from "@x402/core/types";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { rejected } from "../../../core/payments/payment-rejected.ts";
import { type PayerHold, settlementKeysOf } from "../../../core/payments/settlement-locks.ts";
import type { CeilingCounter } from "../../../core/ports/ceiling-counter.ts";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import { PendingSettlements } from "../../../core/ports/pending-settlements.ts";
import type { SettlementLocks } from "../../../core/ports/settlement-locks-store.ts";
import type { SponsorLosses } from "../../../core/ports/sponsor-losses-store.ts";
import { reserveChainLookup } from "../../../core/use-cases/reserve-chain-lookup.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import { type ExactFacilitator, type ExactRefusal, simulateCosigned } from "./exact-payment.ts";
import { checkExactTransaction, checkTransfer } from "./exact-transaction.ts";
import { type FacilitatorTerms, INVALID_PAYMENT_REQUIREMENTS, refusalOfTerms } from "./facilitator-terms.ts";
import { type CoSigned, isFinal } from "./fee-payer.ts";
import { closePendingSettlement, recordPendingSettlement } from "./pending-record.ts";
import { holdAfter, holdPayer, letPayerGo } from "./settlement-guard.ts";
import { checkSponsorable, noteSettlement } from "./sponsor-brakes.ts";
import { SETTLEMENT_PENDING } from "./wire.ts";

/**
 * Who a facilitator settlement's signature is recorded as used by: a name no visitor can have
 * (visitor identities are hashes of addresses). Nothing is credited (PaymentStore.markUsed).
 */
const settlementIdentity = (signature: string) => `x402-facilitator:${signature}`;

/** Runs the facilitator's store steps: the transaction's claim and the payer's settlement locks. */
export type RunFacilitatorStep = <A, E>(
  effect: Effect.Effect<
    A,
    E,
    PaymentStore | SettlementLocks | CeilingCounter | PendingSettlements | SponsorLosses
  >,
) => Promise<Outcome<A, E>>;

interface Verified {
  readonly cosigned: CoSigned;
  readonly payer: string;
  readonly hold: PayerHold;
  readonly fee: bigint;
}

const refusal = (error: ExactRefusal) =>
  error._tag === "PaymentRejected" ? error.reason : "unexpected_verify_error";

/** Settlements and verifications one paying wallet may ask for in a window (the simulation RPC is ours). */
const PAYER_CALLS_PER_WINDOW = 20;
const PAYER_WINDOW_MS = 60_000;

/**
 * The request's transaction checked against its requirements under the sponsor policy and the
 * facilitator's terms (a payTo on the allow-list, at least the minimum amount, a mint on the
 * allow-list with the decimals the chain gives it) and co-signed; not simulated (the caller
 * does, with the payer held when it settles).
 */
const checkRequest = async (
  body: unknown,
  facilitator: ExactFacilitator,
  sponsored: FacilitatorTerms,
): Promise<Outcome<Verified, string>> => {
  const request = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const payload = PaymentPayloadV2Schema.safeParse(request.paymentPayload);
  const requirements = PaymentRequirementsV2Schema.safeParse(request.paymentRequirements);
  if (!payload.success || !requirements.success) return { ok: false, error: "invalid_payload" };
  const terms = requirements.data;
  if (terms.scheme !== "exact" || payload.data.accepted.scheme !== "exact")
    return { ok: false, error: "unsupported_scheme" };
  if (terms.network !== facilitator.network) return { ok: false, error: "invalid_network" };
  if ((terms.extra as { feePayer?: unknown } | undefined)?.feePayer !== facilitator.feePayer.address)
    return { ok: false, error: "fee_payer_not_managed_by_facilitator" };
  if (!/^\d{1,20}$/.test(terms.amount)) return { ok: false, error: INVALID_PAYMENT_REQUIREMENTS };
  const outside = refusalOfTerms(sponsored, { payTo: terms.payTo, amount: BigInt(terms.amount) });
  if (outside !== undefined) return { ok: false, error: outside };
  const { mints } = facilitator.policy;
  if (mints.length > 0 && !mints.includes(terms.asset))
    return { ok: false, error: rejected("sent-other-token").reason };
  const transaction = (payload.data.payload as { transaction?: unknown }).transaction;
  if (typeof transaction !== "string") return { ok: false, error: "invalid_payload" };
  const shaped = await checkExactTransaction(transaction, facilitator.feePayer.address, facilitator.policy);
  if (Result.isFailure(shaped)) return { ok: false, error: shaped.failure.reason };
  const { transfer, memos, sponsorFee } = shaped.success;
  // The scheme: when the requirements name a memo, exactly one memo carries it.
  const memo = (terms.extra as { memo?: unknown } | undefined)?.memo;
  if (typeof memo === "string" && (memos.length !== 1 || memos[0] !== memo))
    return { ok: false, error: memos.length === 0 ? "memo-required" : "memo-mismatch" };
  // The decimals the chain gives the mint, never those the transaction states.
  const decimals = await facilitator.feePayer.decimalsOf(terms.asset as Address).then(
    (known) => known,
    () => null,
  );
  if (decimals === null) return { ok: false, error: "unexpected_verify_error" };
  if (decimals === undefined) return { ok: false, error: rejected("sent-other-token").reason };
  const matches = await checkTransfer(transfer, {
    units: BigInt(terms.amount),
    mint: terms.asset,
    payTo: terms.payTo,
    decimals,
  });
  if (Result.isFailure(matches)) return { ok: false, error: matches.failure.reason };
  const cosigned = await facilitator.feePayer.cosign(shaped.success.transaction);
  const hold = { keys: settlementKeysOf(transfer), holder: cosigned.signature };
  return { ok: true, value: { cosigned, payer: transfer.authority, hold, fee: sponsorFee } };
};

/** A simulation as the facilitator's answer: undefined when it passed, else the reason. */
const simulationRefusal = async (facilitator: ExactFacilitator, cosigned: CoSigned) => {
  const simulated = await simulateCosigned(facilitator, cosigned);
  return simulated.ok ? undefined : refusal(simulated.error);
};

export const facilitatorService = (
  facilitator: ExactFacilitator,
  terms: () => Promise<FacilitatorTerms>,
  run: RunFacilitatorStep,
) => {
  const network = facilitator.network;
  // Per paying wallet, in this process: a window of calls (each simulates on our RPC).
  let window = 0;
  let calls = new Map<string, number>();
  const overLimit = (payer: string): boolean => {
    const now = Math.floor(Date.now() / PAYER_WINDOW_MS);
    if (now !== window) {
      window = now;
      calls = new Map();
    }
    const count = (calls.get(payer) ?? 0) + 1;
    calls.set(payer, count);
    return count > PAYER_CALLS_PER_WINDOW;
  };
  const checked = async (body: unknown, client: string): Promise<Outcome<Verified, string>> => {
    if (!facilitator.sponsor.offered())
      return { ok: false, error: rejected("exact-sponsor-unavailable").reason };
    const outcome = await checkRequest(body, facilitator, await terms());
    if (!outcome.ok) return outcome;
    if (overLimit(outcome.value.payer)) return { ok: false, error: rejected("exact-payer-busy").reason };
    // The simulation is an RPC call on our plan: the same budget as every lookup, spent before it.
    const { cosigned } = outcome.value;
    const reserved = await run(reserveChainLookup({ client, signature: cosigned.signature }, 0n));
    if (!reserved.ok)
      return {
        ok: false,
        error: reserved.error._tag === "PaymentRejected" ? reserved.error.reason : "unexpected_verify_error",
      };
    return outcome;
  };
  return {
    supported: (): SupportedResponse => ({
      kinds: [
        { x402Version: 2, scheme: "exact", network, extra: { feePayer: facilitator.feePayer.address } },
      ],
      extensions: [],
      signers: { [network]: [facilitator.feePayer.address] },
    }),
    /** `client`: the caller, whose budget of chain lookups the simulation spends. */
    verify: async (body: unknown, client: string): Promise<VerifyResponse> => {
      const verified = await checked(body, client);
      if (!verified.ok) return { isValid: false, invalidReason: verified.error };
      const refused = await simulationRefusal(facilitator, verified.value.cosigned);
      return refused === undefined
        ? { isValid: true, payer: verified.value.payer }
        : { isValid: false, invalidReason: refused, payer: verified.value.payer };
    },
    settle: async (body: unknown, client: string): Promise<SettleResponse> => {
      const verified = await checked(body, client);
      if (!verified.ok) return { success: false, errorReason: verified.error, transaction: "", network };
      const { cosigned, payer, hold, fee } = verified.value;
      const refuse = (errorReason: string): SettleResponse => ({
        success: false,
        errorReason,
        transaction: "",
        network,
        payer,
      });
      const transaction = cosigned.signature;
      const pending: SettleResponse = {
        success: false,
        errorReason: SETTLEMENT_PENDING,
        transaction,
        network,
        payer,
      };
      // The same transaction settled before and left pending: its fate now, never a second send.
      const earlier = await run(Effect.flatMap(PendingSettlements, (table) => table.find(transaction)));
      if (!earlier.ok) return refuse("unexpected_settle_error");
      if (earlier.value !== undefined) {
        const fate = await facilitator.feePayer
          .fate(transaction, cosigned.blockhash)
          .catch(() => "unknown" as const);
        if (fate === "unknown") return pending;
        // One caller closes it: that one hears the outcome, any other that it was used.
        if (!(await closePendingSettlement(run, transaction, transaction)))
          return refuse(rejected("signature-already-used").reason);
        return fate === "landed"
          ? { success: true, transaction, network, payer }
          : { success: false, errorReason: "exact-settlement-failed", transaction, network, payer };
      }
      // The same brakes as our own routes: a cooled-down wallet or a spent hourly budget is refused.
      const sponsorable = await checkSponsorable(run, facilitator, payer);
      if (!sponsorable.ok)
        return refuse(
          sponsorable.error._tag === "PaymentRejected" ? sponsorable.error.reason : "unexpected_settle_error",
        );
      // One settlement per payer at a time, as for our own routes, simulated while it is held.
      const held = await holdPayer(run, hold);
      if (!held.ok) return refuse("unexpected_settle_error");
      if (held.value === "held-by-holder") return refuse(rejected("exact-payment-in-progress").reason);
      if (held.value === "held-by-other") return refuse(rejected("exact-payer-busy").reason);
      const refused = await simulationRefusal(facilitator, cosigned);
      if (refused !== undefined) {
        await letPayerGo(run, hold, 0);
        return refuse(refused);
      }
      const claimed = await run(
        Effect.gen(function* () {
          const store = yield* PaymentStore;
          const now = yield* Clock.currentTimeMillis;
          return yield* store.markUsed(cosigned.signature, settlementIdentity(cosigned.signature), now);
        }),
      );
      if (!claimed.ok) {
        await letPayerGo(run, hold, 0);
        const duplicate = claimed.error._tag === "AlreadyClaimed";
        return refuse(duplicate ? rejected("signature-already-used").reason : "unexpected_settle_error");
      }
      // Written ahead: an outcome not known in the wait is answered pending and followed.
      const recorded = await recordPendingSettlement(run, { kind: "facilitator", cosigned, payer });
      if (!recorded.ok || !recorded.value) {
        await letPayerGo(run, hold, 0);
        return refuse("unexpected_settle_error");
      }
      const settled = await facilitator.feePayer.submit(cosigned, { sentBefore: false, fee });
      await noteSettlement(run, facilitator, { payer, fee }, settled);
      await letPayerGo(run, hold, holdAfter(settled));
      // Not known yet (x402's settlement_pending): a later settle of the same payload succeeds once it landed.
      if (!isFinal(settled)) return pending;
      await closePendingSettlement(run, transaction, transaction);
      return settled.ok
        ? { success: true, transaction: cosigned.signature, network, payer }
        : {
            success: false,
            errorReason: "exact-settlement-failed",
            transaction: cosigned.signature,
            network,
            payer,
          };
    },
  };
};
