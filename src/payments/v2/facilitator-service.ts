/**
 * Our facilitator for other x402 servers (POST /x402/verify, POST /x402/settle, GET
 * /x402/supported, the x402 v2 shapes). Their payment requirements are the terms: the same
 * transaction rules as our own routes (exact-transaction.ts), any memo allowed (it is theirs),
 * co-signed and simulated. Settling claims the transaction id in the shared payment store
 * first (one atomic step across instances: the official package keeps only a per-process
 * duplicate cache), then submits and waits for confirmation; a claimed transaction is never
 * submitted twice by us, and a failed settlement needs a new payment.
 */
import { PaymentPayloadV2Schema, PaymentRequirementsV2Schema } from "@x402/core/schemas";
import type { SettleResponse, SupportedResponse, VerifyResponse } from "@x402/core/types";
import { Clock, Effect, Result } from "effect";
import { parseDecimalUnits } from "../../../core/payments/money.ts";
import { rejected } from "../../../core/payments/payment-rejected.ts";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import type { Outcome } from "../../hono-kit/run-effect.ts";
import { type ExactFacilitator, type ExactRefusal, simulateCosigned } from "./exact-payment.ts";
import { checkExactTransaction, checkTransfer } from "./exact-transaction.ts";
import type { CoSigned } from "./fee-payer.ts";

/**
 * The identity a facilitator settlement is recorded under in the signature ledger. The ledger's
 * claim credits at least one query, so each settlement credits one to an identity of its own
 * that no visitor can have (visitor identities are hashes of addresses): kept a day, then gone.
 */
const settlementIdentity = (signature: string) => `x402-facilitator:${signature}`;

export type ClaimTransaction = (
  effect: Effect.Effect<unknown, unknown, PaymentStore>,
) => Promise<Outcome<unknown, unknown>>;

interface Verified {
  readonly cosigned: CoSigned;
  readonly payer: string;
}

const refusal = (error: ExactRefusal) =>
  error._tag === "PaymentRejected" ? error.reason : "unexpected_verify_error";

/** The request's transaction checked against its requirements, co-signed and simulated. */
const verifyRequest = async (
  body: unknown,
  facilitator: ExactFacilitator,
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
  const units = Result.getOrUndefined(parseDecimalUnits(terms.amount));
  if (units === undefined || !/^\d+$/.test(terms.amount)) return { ok: false, error: "invalid_payload" };
  const transaction = (payload.data.payload as { transaction?: unknown }).transaction;
  if (typeof transaction !== "string") return { ok: false, error: "invalid_payload" };
  const shaped = await checkExactTransaction(transaction, facilitator.feePayer.address);
  if (Result.isFailure(shaped)) return { ok: false, error: shaped.failure.reason };
  const { transfer } = shaped.success;
  const matches = await checkTransfer(transfer, {
    units: BigInt(terms.amount),
    mint: terms.asset,
    payTo: terms.payTo,
    decimals: transfer.decimals,
  });
  if (Result.isFailure(matches)) return { ok: false, error: matches.failure.reason };
  const cosigned = await facilitator.feePayer.cosign(shaped.success.transaction);
  const simulated = await simulateCosigned(facilitator, cosigned);
  if (!simulated.ok) return { ok: false, error: refusal(simulated.error) };
  return { ok: true, value: { cosigned, payer: transfer.authority } };
};

export const facilitatorService = (facilitator: ExactFacilitator, claim: ClaimTransaction) => ({
  supported: (): SupportedResponse => ({
    kinds: [
      {
        x402Version: 2,
        scheme: "exact",
        network: facilitator.network,
        extra: { feePayer: facilitator.feePayer.address },
      },
    ],
    extensions: [],
    signers: { [facilitator.network]: [facilitator.feePayer.address] },
  }),
  verify: async (body: unknown): Promise<VerifyResponse> => {
    const verified = await verifyRequest(body, facilitator);
    return verified.ok
      ? { isValid: true, payer: verified.value.payer }
      : { isValid: false, invalidReason: verified.error };
  },
  settle: async (body: unknown): Promise<SettleResponse> => {
    const network = facilitator.network;
    const verified = await verifyRequest(body, facilitator);
    if (!verified.ok) return { success: false, errorReason: verified.error, transaction: "", network };
    const { cosigned, payer } = verified.value;
    const claimed = await claim(
      Effect.gen(function* () {
        const store = yield* PaymentStore;
        const now = yield* Clock.currentTimeMillis;
        return yield* store.markUsed(cosigned.signature, settlementIdentity(cosigned.signature), now);
      }),
    );
    if (!claimed.ok) {
      const duplicate = (claimed.error as { _tag?: string })._tag === "AlreadyClaimed";
      const errorReason = duplicate ? rejected("signature-already-used").reason : "unexpected_settle_error";
      return { success: false, errorReason, transaction: "", network, payer };
    }
    const settled = await facilitator.feePayer.submit(cosigned, { sentBefore: false });
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
});
