/**
 * The service's limits: one of each per process, shared by the default site and every hosted site.
 *
 * Rule: a limit that guards something the service owns (the operator's RPC plan, a secret that
 * opens every site's door, the chain behind every site) is made once, by whoever builds the app
 * (src/runtime/boot.ts), and handed to every site's routes; a site's router never makes its own.
 * Arithmetic: built per site router, each of them is multiplied by the number of sites (with 50
 * sites a guesser would get 50 x 5 tries of ADMIN_TOKEN per 15 minutes, /readyz would call getSlot 50 times per
 * 5 s = 600 anonymous RPC calls a minute), and a reload of the sites file would reset them.
 * Shared, they stay what docs/configuration.md says:
 *   - wallet sign-ins: SIGN_IN_ATTEMPTS_PER_MINUTE (20) per client across sites;
 *   - the consoles' wrong tokens (owner tokens and ADMIN_TOKEN): 5 per client per 15 minutes;
 *   - METRICS_TOKEN, behind every site's /metrics and /readyz: 5 wrong per client per 15 minutes;
 *   - /readyz's chain check: one getSlot per READINESS_PROBE_EVERY_MS (5 s) for the whole service.
 * Each stays in memory per instance (core/ceilings/ceilings.ts says why for each); an app built
 * alone (a test) gets fresh ones. The RPC relay's budgets are not here: they guard a cost every
 * instance shares, so they are counted in the store (core/use-cases/admit-relay-call.ts).
 */
import { type FailureLimiter, failureLimiter } from "../hono-kit/failure-limiter.ts";

/** Sign-in challenges and attempts one client may make a minute (every attempt counts). */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 20;
/** At most one probe of the chain (getSlot) per this many ms, for every site's /readyz together. */
export const READINESS_PROBE_EVERY_MS = 5_000;

/**
 * The answer of `probe` shared by every caller of its period; one in progress is awaited, not
 * repeated. Every caller passes the same probe (the sites share one chain reader): whichever
 * comes first in a period runs it.
 */
export const sharedProbe = <A>(everyMs: number, now: () => number) => {
  let last: { readonly at: number; readonly result: Promise<A> } | undefined;
  return (probe: () => Promise<A>): Promise<A> => {
    const at = now();
    if (last === undefined || at - last.at >= everyMs) last = { at, result: probe() };
    return last.result;
  };
};

export type SharedProbe<A> = ReturnType<typeof sharedProbe<A>>;

/** A readiness check's result: its name and, when it failed, the operator's problem text. */
export interface CheckResult {
  readonly name: string;
  readonly problem: string | undefined;
}

export interface ServiceLimiters {
  readonly signInAttempts: FailureLimiter;
  readonly consoleLockout: FailureLimiter;
  readonly metricsLockout: FailureLimiter;
  readonly chainReadiness: SharedProbe<CheckResult>;
}

/** The service's limits, fresh; `now` is the clock of the edge's limits (tests pass their own). */
export const serviceLimiters = (now?: () => number): ServiceLimiters => {
  const clock = now === undefined ? {} : { now };
  return {
    signInAttempts: failureLimiter({ maxFailures: SIGN_IN_ATTEMPTS_PER_MINUTE, windowMs: 60_000, ...clock }),
    // The console's lockout has always run on the wall clock.
    consoleLockout: failureLimiter(),
    metricsLockout: failureLimiter(clock),
    chainReadiness: sharedProbe<CheckResult>(READINESS_PROBE_EVERY_MS, now ?? Date.now),
  };
};
