/**
 * Which hosts the crawler may connect to: a docs URL that resolves to a private, loopback or
 * link-local address would let whoever sets it probe the service's own network, so such
 * addresses are refused unless the operator allows them (tests and intranet docs need that).
 */
import { lookup } from "node:dns/promises";
import { inCidr, parseIp } from "../../../core/ip.ts";

const NOT_PUBLIC = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/128",
  "::1/128",
  "fc00::/7",
  "fe80::/10",
  "ff00::/8",
];

/** Whether an address (v4, v6 or IPv4-mapped) is outside the public internet. */
export const isPrivateAddress = (address: string): boolean => {
  const ip = parseIp(address);
  return ip === undefined || NOT_PUBLIC.some((cidr) => inCidr(ip, cidr));
};

/**
 * A check per host name, resolved once per crawl: undefined when the host may be fetched,
 * else the reason. DNS can answer differently at connect time; the redirect and origin rules
 * still hold then, and the operator's network should not route to internal services anyway.
 */
export const addressGuard = (allowPrivate: boolean) => {
  const verdicts = new Map<string, Promise<string | undefined>>();
  const judge = async (hostname: string): Promise<string | undefined> => {
    const host = hostname.replace(/^\[(.*)\]$/, "$1");
    const addresses =
      parseIp(host) === undefined
        ? (await lookup(host, { all: true })).map((entry) => entry.address)
        : [host];
    const inside = addresses.find(isPrivateAddress);
    return inside === undefined ? undefined : `${hostname} is a private or loopback address (${inside})`;
  };
  return (hostname: string): Promise<string | undefined> => {
    if (allowPrivate) return Promise.resolve(undefined);
    let verdict = verdicts.get(hostname);
    if (verdict === undefined) {
      verdict = judge(hostname);
      verdicts.set(hostname, verdict);
    }
    return verdict;
  };
};
