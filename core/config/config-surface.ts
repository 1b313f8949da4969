/**
 * The public surface's part of the configuration: what a stranger can reach. PUBLIC_ORIGIN is
 * the origin browsers use (it decides the admin cookie's `__Host-` prefix and Secure flag, and
 * the same-origin check of the console's forms, whatever the proxy says); METRICS_TOKEN opens
 * /metrics and the details of /readyz; the body deadline bounds what one client can hold open.
 * ALLOWED_HOSTS adds the names (besides PUBLIC_ORIGIN's) the service answers to when the Host
 * allow-list is on (src/http/edge/host-guard.ts); the idle timeout closes sockets that send
 * nothing, slow headers included. What it may cost is in the table of ceilings
 * (core/ceilings/ceilings.ts). Secret values are never shown in a problem.
 */
import type * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { type Decoded, envInteger, rule, Secret } from "./config-fields.ts";

export interface SurfaceConfig {
  /** e.g. https://chat.example.com; undefined: judged per request (https, or a trusted proxy's word). */
  readonly publicOrigin: string | undefined;
  /** Bearer token of /metrics and of /readyz's problem texts; undefined: /metrics is not served. */
  readonly metricsToken: Redacted.Redacted<string> | undefined;
  /** A request body not complete within this many ms is answered 408 and its connection closed. */
  readonly bodyDeadlineMs: number;
  /** More names the service answers to (lower case, IPv6 in brackets), beside PUBLIC_ORIGIN's and loopback. */
  readonly allowedHosts: ReadonlyArray<string>;
  /** A socket that sends nothing (headers included) for this many seconds is closed (Bun; Deno has no such knob). */
  readonly idleTimeoutSeconds: number;
}

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

/** The surface's variables, as fields of the service's settings (core/config/config-service.ts). */
export const SURFACE_FIELDS = {
  METRICS_TOKEN: Secret,
  PUBLIC_ORIGIN: rule((input) => {
    const value = String(input).replace(/\/$/, "");
    return URL.canParse(value) && new URL(value).origin === value && /^https?:/.test(value)
      ? Result.succeed(value)
      : Result.fail(`"${value}" is not an origin like https://chat.example.com (scheme and host, no path)`);
  }),
  BODY_DEADLINE_MS: envInteger(100, 120_000),
  /** Names or IP addresses, no port, no wildcard; IPv6 kept in brackets as Host carries it. */
  ALLOWED_HOSTS: rule((input) => {
    const hosts = String(input)
      .split(",")
      .map((raw) => raw.trim().toLowerCase())
      .filter((host) => host !== "");
    const bad = hosts.filter((host) => hostName(host) === undefined);
    return bad.length === 0
      ? Result.succeed(hosts.map((host) => hostName(host)!))
      : Result.fail(
          bad.map(
            (host) =>
              `"${host}" is not a host name or IP address like chat.example.com (no port, no wildcard)`,
          ),
        );
  }),
  IDLE_TIMEOUT_SECONDS: envInteger(1, 255),
};

type SurfaceSettings = Decoded<typeof SURFACE_FIELDS>;

export const surfaceOf = (s: SurfaceSettings): SurfaceConfig => ({
  publicOrigin: s.PUBLIC_ORIGIN,
  metricsToken: s.METRICS_TOKEN,
  bodyDeadlineMs: s.BODY_DEADLINE_MS ?? 5_000,
  allowedHosts: s.ALLOWED_HOSTS ?? [],
  // Bun's own idle timeout, now stated and adjustable; Bun takes at most 255.
  idleTimeoutSeconds: s.IDLE_TIMEOUT_SECONDS ?? 10,
});
