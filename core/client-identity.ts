/**
 * Who is asking: the client address as the quota identity (design decisions in the README). The socket address by
 * default; forwarded headers only when the peer is a trusted proxy. IPv6 counts per /64 so
 * rotating addresses inside one allocation gains nothing.
 */
import { formatIp, type Ip, inCidr, parseIp } from "./ip.ts";
import type { TrustProxy } from "./trust-proxy.ts";

export interface AddressSources {
  /** Address of the TCP peer. */
  readonly socket: string | undefined;
  readonly forwardedFor: string | undefined;
  readonly realIp: string | undefined;
}

const isTrusted = (ip: Ip, trust: TrustProxy): boolean =>
  trust.kind === "list" && trust.cidrs.some((cidr) => inCidr(ip, cidr));

/** Whether the TCP peer is one of our proxies (with a hop count, the peer is hop 1 by configuration). */
export const peerIsTrustedProxy = (socket: string | undefined, trust: TrustProxy): boolean => {
  if (trust.kind === "none" || socket === undefined) return false;
  if (trust.kind === "hops") return true;
  const ip = parseIp(socket);
  return ip !== undefined && isTrusted(ip, trust);
};

/** The client's address, following forwarded headers only through trusted proxies. */
export const clientAddress = (sources: AddressSources, trust: TrustProxy): Ip | undefined => {
  const socket = sources.socket === undefined ? undefined : parseIp(sources.socket);
  if (trust.kind === "none" || socket === undefined) return socket;
  if (trust.kind === "list" && !isTrusted(socket, trust)) return socket;
  // Unparseable entries stay in place (as undefined): skipping them would let the walk below
  // step past our own proxy's entry to a client-written one.
  const chain = (sources.forwardedFor ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map(parseForwardedEntry);
  if (chain.length === 0) {
    const real = sources.realIp === undefined ? undefined : parseForwardedEntry(sources.realIp);
    return real ?? socket;
  }
  if (trust.kind === "hops") {
    // The peer is hop 1; each further trusted hop appended one entry on the right.
    return chain[Math.max(0, chain.length - trust.hops)] ?? socket;
  }
  // Walk from the right past our own proxies; the first untrusted address is the client.
  // An entry we cannot read ends the walk at the socket address: fail safe, never guess.
  for (let i = chain.length - 1; i >= 0; i--) {
    const ip = chain[i];
    if (ip === undefined) return socket;
    if (!isTrusted(ip, trust)) return ip;
  }
  return chain[0] ?? socket;
};

/** An address as proxies write it: plain, "[v6]", "1.2.3.4:port" or "[v6]:port". */
const parseForwardedEntry = (entry: string): Ip | undefined => {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed !== null) return parseIp(bracketed[1] ?? "");
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  return parseIp(v4WithPort === null ? text : (v4WithPort[1] ?? ""));
};

/** The quota key of an address: the IPv4 address, or the IPv6 /64 prefix. */
export const identityOf = (ip: Ip | undefined): string => {
  if (ip === undefined) return "unknown";
  if (ip.version === 4) return formatIp(ip);
  const prefix = { version: 6 as const, value: (ip.value >> 64n) << 64n };
  return `${formatIp(prefix).split(":").slice(0, 4).join(":")}::/64`;
};
