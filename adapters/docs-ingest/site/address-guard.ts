/**
 * Which addresses the crawler may connect to for a host. A docs URL that reaches a private,
 * loopback or link-local address would let whoever sets it probe the service's own network (a
 * cloud's metadata service at 169.254.169.254 among it), so such addresses are refused unless
 * the operator allows them (tests and intranet docs need that). The ranges are core/ip.ts's.
 *
 * A host is resolved once per crawl and the connection goes to exactly the addresses judged
 * here (pinned-get.ts), never to a fresh answer of the name: a name that answers a public
 * address first and 169.254.169.254 next (DNS rebinding) only ever reaches the first.
 */
import { lookup } from "node:dns/promises";
import { inCidr, notPublicRange, parseIp } from "../../../core/ip.ts";

export interface HostAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** A name's addresses, as the system resolver (or a test's) answers them. */
export type Resolve = (hostname: string) => Promise<ReadonlyArray<HostAddress>>;

export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));

export type HostVerdict =
  | { readonly kind: "pinned"; readonly addresses: ReadonlyArray<HostAddress> }
  | { readonly kind: "refused"; readonly reason: string };

/** The addresses to connect to for a host name, or why none may be. */
export type PinHost = (hostname: string) => Promise<HostVerdict>;

export interface GuardOptions {
  readonly allowPrivate: boolean;
  readonly resolve?: Resolve;
  /** Non-public ranges trusted all the same (a test's second loopback address). */
  readonly trusted?: ReadonlyArray<string>;
}

/**
 * One verdict per host name for a crawl. A name with one non-public address among public ones
 * is refused whole: which of them a connection would use is not ours to predict.
 */
export const addressGuard = ({
  allowPrivate,
  resolve = systemResolve,
  trusted = [],
}: GuardOptions): PinHost => {
  const verdicts = new Map<string, Promise<HostVerdict>>();
  const judge = async (hostname: string): Promise<HostVerdict> => {
    const host = hostname.replace(/^\[(.*)\]$/, "$1");
    const addresses: ReadonlyArray<HostAddress> =
      parseIp(host) === undefined
        ? await resolve(host)
        : [{ address: host, family: host.includes(":") ? 6 : 4 }];
    if (addresses.length === 0) throw new Error(`${hostname} has no address`);
    for (const { address } of addresses) {
      const ip = parseIp(address);
      if (ip === undefined)
        return { kind: "refused", reason: `${hostname} resolved to ${address}, not an address` };
      const range = allowPrivate ? undefined : notPublicRange(ip);
      if (range !== undefined && !trusted.some((cidr) => inCidr(ip, cidr)))
        return {
          kind: "refused",
          reason: `${hostname} is a private or loopback address (${address}, in ${range})`,
        };
    }
    return { kind: "pinned", addresses };
  };
  return (hostname) => {
    let verdict = verdicts.get(hostname);
    if (verdict === undefined) {
      verdict = judge(hostname);
      verdicts.set(hostname, verdict);
    }
    return verdict;
  };
};
