/**
 * Bridges Effect programs to Hono handlers: run on the process-wide runtime, hand back the value
 * or the expected error (the route turns it into a response), and let defects surface as 500
 * (logged, never echoed).
 */
import * as Cause from "effect/Cause";
import type * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type * as ManagedRuntime from "effect/ManagedRuntime";
import * as Option from "effect/Option";
import type { InsightsSettings } from "../../core/insights/insights-settings.ts";
import type { PaymentSettings } from "../../core/payments/payment-settings.ts";
import type { ChainReader } from "../../core/ports/chain-reader.ts";
import type { Conversations } from "../../core/ports/conversations.ts";
import type { Generator } from "../../core/ports/generator.ts";
import type { Retriever } from "../../core/ports/retrieval.ts";
import type { SecureRandom } from "../../core/ports/secure-random.ts";
import type { StoreServices } from "../../core/ports/store-services.ts";
import type { VisitorHasher } from "../../core/ports/visitor-hasher.ts";

export type Services =
  | StoreServices
  | PaymentSettings
  | ChainReader
  | Retriever
  | Generator
  | Conversations
  | InsightsSettings
  | VisitorHasher
  | SecureRandom;
export type AppRuntime = ManagedRuntime.ManagedRuntime<Services, never>;

/** Thrown to reach Hono's onError (500 + request id) with the real cause attached. */
export class Defect extends Error {
  constructor(readonly detail: string) {
    super("Internal server error");
  }
}

export type Outcome<A, E> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly error: E };

/** The value or expected error; a defect becomes a rejection, never a synchronous throw. */
const settle = <A, E>(exit: Exit.Exit<A, E>): Outcome<A, E> | Promise<never> => {
  if (Exit.isSuccess(exit)) return { ok: true, value: exit.value };
  const error = Cause.findErrorOption(exit.cause);
  if (Option.isSome(error)) return { ok: false, error: error.value };
  return Promise.reject(new Defect(Cause.pretty(exit.cause)));
};

/**
 * Runs `effect`: its value or its expected error; a promise rejected with a Defect otherwise.
 * Synchronous when the effect finishes without waiting and without a defect (the memory
 * store), so a route built on it makes no promise then; a promise otherwise.
 */
export const runOutcome = <A, E, R = Services>(
  runtime: ManagedRuntime.ManagedRuntime<R, never>,
  effect: Effect.Effect<A, E, R>,
  signal?: AbortSignal,
): Outcome<A, E> | Promise<Outcome<A, E>> => {
  const fiber = runtime.runFork(effect, signal === undefined ? undefined : { signal });
  const exit = fiber.pollUnsafe();
  if (exit !== undefined) return settle(exit);
  return new Promise((resolve) => fiber.addObserver((done) => resolve(settle(done))));
};

/** Applies `then` to a value now, or once its promise settles: keeps a synchronous path synchronous. */
export const whenReady = <A, B>(value: A | Promise<A>, then: (value: A) => B): B | Promise<B> =>
  value instanceof Promise ? value.then(then) : then(value);
