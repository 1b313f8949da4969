/**
 * The public surface's part of the configuration: what a stranger can reach and what it may
 * cost. PUBLIC_ORIGIN is the origin browsers use (it decides the admin cookie's `__Host-` prefix
 * and Secure flag, and the same-origin check of the console's forms, whatever the proxy says);
 * METRICS_TOKEN opens /metrics and the details of /readyz; the body deadline and the per-client
 * cap bound what one client can hold open; the relay budgets bound the RPC calls the widget's
 * relay makes on the operator's plan. ALLOWED_HOSTS adds the names (besides PUBLIC_ORIGIN's) the
 * service answers to when the Host allow-list is on (src/http/edge/host-guard.ts); the idle timeout
 * closes sockets that send nothing, slow headers included. Secret values are never shown in a problem.
 */
import * as Redacted from "effect/Redacted";
import { MIN_SECRET_LENGTH } from "./config-insights.ts";
import type { Reader } from "./config-reader.ts";
import {
  CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE,
  CHAIN_LOOKUPS_PER_MINUTE,
} from "./payments/chain-lookup-budget.ts";
import { CREDITLESS_SIGN_INS_PER_MINUTE, MAX_CREDITLESS_SESSIONS } from "./sign-in/session-ceilings.ts";

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
  /** More names the service answers to (lower case, IPv6 in brackets), beside PUBLIC_ORIGIN's and loopback. */
  readonly allowedHosts: ReadonlyArray<string>;
  /** A socket that sends nothing (headers included) for this many seconds is closed (Bun; Deno has no such knob). */
  readonly idleTimeoutSeconds: number;
  /** Session records of wallets without credits (and closed ones) kept at most (core/sign-in/session-ceilings.ts). */
  readonly maxCreditlessSessions: number;
  /** Sign-ins of wallets without credits per UTC minute, all clients together (session-ceilings.ts). */
  readonly creditlessSignInsPerMinute: number;
}

export const DEFAULT_SURFACE = {
  bodyDeadlineMs: 5_000,
  maxInFlightPerClient: 64,
  rpcRelayPerClientPerMinute: 60,
  rpcRelayPerMinute: 1_200,
  chainLookupsPerClientPerMinute: CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE,
  chainLookupsPerMinute: CHAIN_LOOKUPS_PER_MINUTE,
  // Bun's own default, now stated and adjustable; Bun takes at most 255.
  idleTimeoutSeconds: 10,
  maxCreditlessSessions: MAX_CREDITLESS_SESSIONS,
  creditlessSignInsPerMinute: CREDITLESS_SIGN_INS_PER_MINUTE,
} as const;

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV6 = /^\[?([0-9a-f:.]+)\]?$/;

/** A host name or IP address (no port) as Host carries it: lower case, IPv6 in brackets; undefined: neither. */
export const hostName = (text: string): string | undefined => {
  const host = text.trim().toLowerCase();
  const v6 = host.includes(":") ? IPV6.exec(host)?.[1] : undefined;
  if (v6 !== undefined)
    return URL.canParse(`http://[${v6}]/`) ? new URL(`http://[${v6}]/`).hostname : undefined;
  return HOST_NAME.test(host) ? host : undefined;
};

/** ALLOWED_HOSTS: names or IP addresses, no port, no wildcard; IPv6 kept in brackets as Host carries it. */
const parseHosts = (read: Reader): ReadonlyArray<string> => {
  const hosts: string[] = [];
  for (const raw of (read.text("ALLOWED_HOSTS") ?? "").split(",")) {
    const host = raw.trim().toLowerCase();
    if (host === "") continue;
    const name = hostName(host);
    if (name !== undefined) hosts.push(name);
    else
      read.problems.push(
        `ALLOWED_HOSTS: "${host}" is not a host name or IP address like chat.example.com (no port, no wildcard)`,
      );
  }
  return hosts;
};

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
    allowedHosts: parseHosts(read),
    idleTimeoutSeconds: read.integer("IDLE_TIMEOUT_SECONDS", DEFAULT_SURFACE.idleTimeoutSeconds, 1, 255),
    maxCreditlessSessions: read.integer(
      "MAX_CREDITLESS_SESSIONS",
      DEFAULT_SURFACE.maxCreditlessSessions,
      1,
      10_000_000,
    ),
    creditlessSignInsPerMinute: read.integer(
      "CREDITLESS_SIGN_INS_PER_MINUTE",
      DEFAULT_SURFACE.creditlessSignInsPerMinute,
      1,
      10_000_000,
    ),
  };
};
