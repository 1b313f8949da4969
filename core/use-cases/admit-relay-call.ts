/**
 * One call of the widget's RPC relay (/api/solana-rpc of every site) against its two ceilings,
 * rpc-relay-per-client and rpc-relay (core/ceilings/ceilings.ts): the client's and everyone's
 * calls a UTC minute, admitted all or none by the service's ceiling counter, so every instance
 * and every site spends one budget of the operator's RPC plan (N instances counting their own
 * would forward N times it). A transaction paying the service is charged to its client alone: a
 * few clients spending the shared budget cannot stop everyone's payments.
 */
import * as Effect from "effect/Effect";
import { type CeilingLimits, CeilingLimitsInForce } from "../ceilings/ceilings.ts";
import { retryAfterMs, windowAt, windowCounter } from "../ceilings/counters.ts";
import { noteRefusal } from "../ceilings/refusals.ts";
import { CeilingCounter, type Counter, type CounterVerdict } from "../ports/ceiling-counter.ts";

export type RelayVerdict =
  | { readonly kind: "ok" }
  | { readonly kind: "client" | "total"; readonly retryAfterMs: number };

const MINUTE_MS = 60_000;

/** The counters one call must fit: the client's, and everyone's unless it pays the service. */
export const relayCounters = (
  client: string,
  paysService: boolean,
  limits: CeilingLimits,
  now: number,
): ReadonlyArray<Counter> => [
  windowCounter("rpc-relay-per-client", client, limits["rpc-relay-per-client"], now),
  ...(paysService ? [] : [windowCounter("rpc-relay", "all", limits["rpc-relay"], now)]),
];

/** Whose budget refused, and until when (the minute's end). */
export const relayVerdict = (verdict: CounterVerdict, now: number): RelayVerdict =>
  verdict.admitted
    ? { kind: "ok" }
    : {
        kind: verdict.refusedBy.ceiling === "rpc-relay-per-client" ? "client" : "total",
        retryAfterMs: retryAfterMs(verdict.refusedBy, now) ?? windowAt(MINUTE_MS, now).endsAt - now,
      };

/** Counts one relayed call of `client` at `now`, or says whose budget is spent (nothing counted then). */
export const admitRelayCall = Effect.fn("admitRelayCall")(function* (
  client: string,
  paysService: boolean,
  now: number,
) {
  const counter = yield* CeilingCounter;
  const limits = yield* CeilingLimitsInForce;
  const verdict = relayVerdict(
    yield* counter.admit(relayCounters(client, paysService, limits, now), now),
    now,
  );
  if (verdict.kind !== "ok")
    yield* noteRefusal(verdict.kind === "client" ? "rpc-relay-per-client" : "rpc-relay");
  return verdict;
});
