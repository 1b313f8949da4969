/**
 * The public surface's part of the configuration: what a stranger can reach and what it may
 * cost. PUBLIC_ORIGIN is the origin browsers use (it decides the admin cookie's `__Host-` prefix
 * and Secure flag, and the same-origin check of the console's forms, whatever the proxy says);
 * METRICS_TOKEN opens /metrics and the details of /readyz; the body deadline and the per-client
 * cap bound what one client can hold open; the relay budgets bound the RPC calls the widget's
 * relay makes on the operator's plan. Secret values are never shown in a problem.
 */
import { Redacted } from "effect";
import { MIN_SECRET_LENGTH } from "./config-insights.ts";
import type { Reader } from "./config-reader.ts";
import {
  CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE,
  CHAIN_LOOKUPS_PER_MINUTE,
} from "./payments/chain-lookup-budget.ts";
import { MAX_CREDITLESS_SESSIONS } from "./sign-in/session-ceilings.ts";

export interface SurfaceConfig {
  /** e.g. https://chat.example.com; undefined: judged per request (https, or a trusted proxy's word). */
  readonly publicOrigin: string | undefined;
  /** Bearer token of /metrics and of /readyz's problem texts; undefined: /metrics is not served. */
  readonly metricsToken: Redacted.Redacted<string> | undefined;
  /** A request body not complete within this many ms is answered 408 and its connection closed. */
  readonly bodyDeadlineMs: number;
  /** Requests one client (identity) may have in flight at once; more get 429 at once. */
  readonly maxInFlightPerClient: number;
  /** RPC calls the relay forwards per client per minute, and for everyone together per minute. */
  readonly rpcRelayPerClientPerMinute: number;
  readonly rpcRelayPerMinute: number;
  /** Chain lookups of unseen signatures per client per minute, and for everyone per minute (core/payments/chain-lookup-budget.ts). */
  readonly chainLookupsPerClientPerMinute: number;
  readonly chainLookupsPerMinute: number;
  /** Session records of wallets without credits (and closed ones) kept at most (core/sign-in/session-ceilings.ts). */
  readonly maxCreditlessSessions: number;
}

export const DEFAULT_SURFACE = {
  bodyDeadlineMs: 5_000,
  maxInFlightPerClient: 64,
  rpcRelayPerClientPerMinute: 60,
  rpcRelayPerMinute: 1_200,
  chainLookupsPerClientPerMinute: CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE,
  chainLookupsPerMinute: CHAIN_LOOKUPS_PER_MINUTE,
  maxCreditlessSessions: MAX_CREDITLESS_SESSIONS,
} as const;

const parseOrigin = (read: Reader): string | undefined => {
  const value = read.text("PUBLIC_ORIGIN")?.replace(/\/$/, "");
  if (value === undefined) return undefined;
  const ok = URL.canParse(value) && new URL(value).origin === value && /^https?:/.test(value);
  if (ok) return value;
  read.problems.push(
    `PUBLIC_ORIGIN: "${value}" is not an origin like https://chat.example.com (scheme and host, no path)`,
  );
  return undefined;
};

export const parseSurface = (read: Reader): SurfaceConfig => {
  const token = read.text("METRICS_TOKEN");
  if (token !== undefined && token.length < MIN_SECRET_LENGTH)
    read.problems.push(`METRICS_TOKEN: must be at least ${MIN_SECRET_LENGTH} characters (value hidden)`);
  return {
    publicOrigin: parseOrigin(read),
    metricsToken: token !== undefined && token.length >= MIN_SECRET_LENGTH ? Redacted.make(token) : undefined,
    bodyDeadlineMs: read.integer("BODY_DEADLINE_MS", DEFAULT_SURFACE.bodyDeadlineMs, 100, 120_000),
    maxInFlightPerClient: read.integer(
      "MAX_IN_FLIGHT_PER_CLIENT",
      DEFAULT_SURFACE.maxInFlightPerClient,
      1,
      100_000,
    ),
    rpcRelayPerClientPerMinute: read.integer(
      "RPC_RELAY_PER_CLIENT_PER_MINUTE",
      DEFAULT_SURFACE.rpcRelayPerClientPerMinute,
      1,
      1_000_000,
    ),
    rpcRelayPerMinute: read.integer("RPC_RELAY_PER_MINUTE", DEFAULT_SURFACE.rpcRelayPerMinute, 1, 10_000_000),
    chainLookupsPerClientPerMinute: read.integer(
      "CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE",
      DEFAULT_SURFACE.chainLookupsPerClientPerMinute,
      1,
      1_000_000,
    ),
    chainLookupsPerMinute: read.integer(
      "CHAIN_LOOKUPS_PER_MINUTE",
      DEFAULT_SURFACE.chainLookupsPerMinute,
      1,
      10_000_000,
    ),
    maxCreditlessSessions: read.integer(
      "MAX_CREDITLESS_SESSIONS",
      DEFAULT_SURFACE.maxCreditlessSessions,
      1,
      10_000_000,
    ),
  };
};
