/**
 * Bridges Effect programs to Hono handlers: run on the process-wide runtime, turn expected
 * errors into responses through `respond`, and let defects surface as 500 (logged, never echoed).
 */
import { Cause, type Effect, Exit, type ManagedRuntime, Option } from "effect";
import type { ChainReader } from "../../core/ports/chain-reader.ts";
import type { Conversations } from "../../core/ports/conversations.ts";
import type { Generator } from "../../core/ports/generator.ts";
import type { PaymentStore } from "../../core/ports/payment-store.ts";
import type { QuotaStore } from "../../core/ports/quota-store.ts";
import type { Retriever } from "../../core/ports/retrieval.ts";

export type Services = QuotaStore | PaymentStore | ChainReader | Retriever | Generator | Conversations;
export type AppRuntime = ManagedRuntime.ManagedRuntime<Services, never>;

/** Thrown to reach Hono's onError (500 + request id) with the real cause attached. */
export class Defect extends Error {
  constructor(readonly detail: string) {
    super("Internal server error");
  }
}

/** Runs `effect`; resolves to its value or its expected error, throws a Defect otherwise. */
export const runOutcome = async <A, E>(
  runtime: AppRuntime,
  effect: Effect.Effect<A, E, Services>,
  signal?: AbortSignal,
): Promise<{ readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: E }> => {
  const exit = await runtime.runPromiseExit(effect, signal === undefined ? undefined : { signal });
  if (Exit.isSuccess(exit)) return { ok: true, value: exit.value };
  const error = Cause.findErrorOption(exit.cause);
  if (Option.isSome(error)) return { ok: false, error: error.value };
  throw new Defect(Cause.pretty(exit.cause));
};
