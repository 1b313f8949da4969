/**
 * Decoding of the scripts' replies. A reply of the wrong shape means Redis "answered
 * wrongly" (e.g. a different script under our keys): StoreUnavailable, never a guess.
 */
import * as Effect from "effect/Effect";
import { AlreadyClaimed } from "../../core/ports/payment-store.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { type Hold, PaidDailyCapReached, QuotaExhausted, type QuotaView } from "../../core/quota.ts";

const malformed = () => Effect.fail(new StoreUnavailable({ reason: "redis returned an unexpected reply" }));

const integers = (reply: unknown, from: number, count: number): number[] | undefined => {
  if (!Array.isArray(reply) || reply.length < from + count) return undefined;
  const values = reply.slice(from, from + count);
  return values.every((value) => typeof value === "number" && Number.isSafeInteger(value))
    ? values
    : undefined;
};

/** The view at `from` in a script's reply array. */
export const toView = (reply: unknown, from: number): QuotaView | undefined => {
  const [remaining, resetAt, requires, free, paid] = integers(reply, from, 5) ?? [];
  return remaining === undefined ||
    resetAt === undefined ||
    requires === undefined ||
    free === undefined ||
    paid === undefined
    ? undefined
    : { remaining, resetAt, requiresPayment: requires === 1, free, paid };
};

/** {remaining, resetAt, requiresPayment, free, paid} */
export const decodeView = (reply: unknown): Effect.Effect<QuotaView, StoreUnavailable> => {
  const view = toView(reply, 0);
  return view === undefined ? malformed() : Effect.succeed(view);
};

/** {0, bucket, day, expiresAt, ...view} | {1, resetAt} | {2, resetAt} */
export const decodeReserve =
  (holdId: string) =>
  (
    reply: unknown,
  ): Effect.Effect<
    { readonly hold: Hold; readonly view: QuotaView },
    QuotaExhausted | PaidDailyCapReached | StoreUnavailable
  > => {
    const [status, second] = Array.isArray(reply) ? reply : [];
    if ((status === 1 || status === 2) && typeof second === "number") {
      return Effect.fail(
        status === 1 ? new QuotaExhausted({ resetAt: second }) : new PaidDailyCapReached({ resetAt: second }),
      );
    }
    const [day, expiresAt] = integers(reply, 2, 2) ?? [];
    const view = toView(reply, 4);
    if (status !== 0 || (second !== "f" && second !== "p") || day === undefined || expiresAt === undefined)
      return malformed();
    if (view === undefined) return malformed();
    const hold: Hold = { id: holdId, bucket: second === "f" ? "free" : "paid", day, expiresAt };
    return Effect.succeed({ hold, view });
  };

/** {0, ...view} | {1} */
export const decodeClaim = (reply: unknown): Effect.Effect<QuotaView, AlreadyClaimed | StoreUnavailable> => {
  if (!Array.isArray(reply)) return malformed();
  if (reply.length === 1 && reply[0] === 1) return Effect.fail(new AlreadyClaimed());
  const view = reply[0] === 0 ? toView(reply, 1) : undefined;
  return view === undefined ? malformed() : Effect.succeed(view);
};

/** {0} | {1} (already used) */
export const decodeMarked = (reply: unknown): Effect.Effect<void, AlreadyClaimed | StoreUnavailable> => {
  if (!Array.isArray(reply) || reply.length !== 1) return malformed();
  if (reply[0] === 1) return Effect.fail(new AlreadyClaimed());
  return reply[0] === 0 ? Effect.void : malformed();
};

/** The use time of a signature record "usedAt|claimId|queries|identity". */
export const usedAtOf = (record: string): number | undefined => {
  const match = /^(-?\d+)\|/.exec(record);
  return match?.[1] === undefined ? undefined : Number(match[1]);
};
