/**
 * IP address parsing and CIDR matching over bigints (IPv4 and IPv6, incl. IPv4-mapped), and the
 * one list of addresses that are not the public internet, which the crawler and the paying
 * client both refuse.
 */
export interface Ip {
  readonly version: 4 | 6;
  readonly value: bigint;
}

const parseV4 = (text: string): bigint | undefined => {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
};

const parseV6 = (raw: string): bigint | undefined => {
  // A trailing dotted IPv4 part ("::ffff:1.2.3.4") becomes two hex groups first.
  const lastColon = raw.lastIndexOf(":");
  const dotted = raw.includes(".") ? parseV4(raw.slice(lastColon + 1)) : undefined;
  if (raw.includes(".") && dotted === undefined) return undefined;
  const text =
    dotted === undefined
      ? raw
      : `${raw.slice(0, lastColon + 1)}${(dotted >> 16n).toString(16)}:${(dotted & 0xffffn).toString(16)}`;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const toGroups = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":"));
  const head = toGroups(halves[0]);
  const tail = toGroups(halves[1]);
  const given = head.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  let value = 0n;
  for (const group of [...head, ...Array<string>(8 - given).fill("0"), ...tail]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(`0x${group}`);
  }
  return value;
};

const MAPPED_PREFIX = 0xffffn << 32n;

/** Parses an address (brackets, zone ids and IPv4-mapped IPv6 handled); undefined if not an IP. */
export const parseIp = (raw: string): Ip | undefined => {
  const text = raw
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  const v4 = parseV4(text);
  if (v4 !== undefined) return { version: 4, value: v4 };
  if (!text.includes(":")) return undefined;
  const v6 = parseV6(text);
  if (v6 === undefined) return undefined;
  return v6 >> 32n === 0xffffn ? { version: 4, value: v6 - MAPPED_PREFIX } : { version: 6, value: v6 };
};

interface Range {
  readonly version: 4 | 6;
  readonly shift: bigint;
  readonly prefix: bigint;
}

/** "10.0.0.0/8" -> the network prefix to compare; undefined when not a range. */
const parseRange = (cidr: string): Range | undefined => {
  const [base, bitsText] = cidr.split("/");
  const network = parseIp(base ?? "");
  if (network === undefined) return undefined;
  const width = network.version === 4 ? 32 : 128;
  // "::ffff:10.0.0.0/104" parses as IPv4: its prefix counts from bit 96 of the mapped form.
  const mapped = network.version === 4 && (base ?? "").includes(":");
  const bits = (bitsText === undefined ? (mapped ? 128 : width) : Number(bitsText)) - (mapped ? 96 : 0);
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return undefined;
  const shift = BigInt(width - bits);
  return { version: network.version, shift, prefix: network.value >> shift };
};

/**
 * Parsed ranges by their text. The ranges come from configuration (a handful), and matching
 * runs for every proxied request: parsing each once keeps that to a few bigint shifts.
 */
const ranges = new Map<string, Range | null>();

/** Whether `ip` lies inside `cidr` ("10.0.0.0/8", "::1", "2001:db8::/32"). */
export const inCidr = (ip: Ip, cidr: string): boolean => {
  let range = ranges.get(cidr);
  if (range === undefined) {
    range = parseRange(cidr) ?? null;
    if (ranges.size < 1000) ranges.set(cidr, range);
  }
  return range !== null && range.version === ip.version && ip.value >> range.shift === range.prefix;
};

/** Canonical text: dotted IPv4, or IPv6 as 8 full hex groups. */
export const formatIp = (ip: Ip): string => {
  if (ip.version === 4) return [24n, 16n, 8n, 0n].map((s) => ((ip.value >> s) & 0xffn).toString()).join(".");
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((ip.value >> shift) & 0xffffn).toString(16));
  return groups.join(":");
};

/**
 * Ranges that are not the public internet, after IANA's IPv4 and IPv6 Special-Purpose Address
 * Registries (RFC 6890 and its updates) and the IPv6 address space registry: every block not
 * globally reachable, plus the few marked reachable that no docs site or payee lives on (192.0.0.0/24
 * whole, Teredo inside 2001::/23). A service that fetches what a stranger names must not reach its
 * own network, a cloud's metadata service (169.254.169.254) or a neighbour behind a carrier NAT
 * through any spelling of those addresses.
 */
export const NOT_PUBLIC_RANGES: ReadonlyArray<string> = [
  "0.0.0.0/8", // "this network"; 0.0.0.0 reaches the local host on Linux
  "10.0.0.0/8",
  "100.64.0.0/10", // carrier-grade NAT: the provider's, or a neighbour's, network
  "127.0.0.0/8",
  "169.254.0.0/16", // link-local: cloud metadata services
  "172.16.0.0/12",
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation (TEST-NET-1)
  "192.88.99.0/24", // deprecated 6to4 relay anycast
  "192.168.0.0/16",
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation (TEST-NET-2)
  "203.0.113.0/24", // documentation (TEST-NET-3)
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, and the broadcast address
  "::/96", // unspecified, loopback and the deprecated IPv4-compatible form (::7f00:1)
  "::ffff:0:0:0/96", // IPv4-translated (RFC 2765): ::ffff:0:7f00:1 is 127.0.0.1
  "64:ff9b:1::/48", // local-use NAT64: whatever the local translator maps it to
  "100::/64", // discard-only
  "2001::/23", // IETF protocol assignments, Teredo (2001::/32) among them
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation
  "5f00::/16", // segment routing SIDs
  "fc00::/7", // unique-local
  "fe80::/10", // link-local
  "fec0::/10", // deprecated site-local, still routed inside some networks
  "ff00::/8", // multicast
];

const WELL_KNOWN_NAT64 = 0x0064ff9bn << 96n;
const SIX_TO_FOUR = 0x2002n;

/**
 * The IPv4 address an IPv6 address carries where a translator or tunnel would deliver it:
 * NAT64's well-known prefix 64:ff9b::/96 (RFC 6052) in the low 32 bits, 6to4 2002::/16
 * (RFC 3056) in bits 16..47. IPv4-mapped addresses are IPv4 already (parseIp); the other
 * embeddings are refused whole by NOT_PUBLIC_RANGES.
 */
export const embeddedIpv4 = (ip: Ip): Ip | undefined => {
  if (ip.version === 4) return undefined;
  if (ip.value >> 32n === WELL_KNOWN_NAT64 >> 32n) return { version: 4, value: ip.value & 0xffffffffn };
  if (ip.value >> 112n === SIX_TO_FOUR) return { version: 4, value: (ip.value >> 80n) & 0xffffffffn };
  return undefined;
};

/** The non-public range `ip` (or the IPv4 address it embeds) lies in; undefined when public. */
export const notPublicRange = (ip: Ip): string | undefined => {
  const inside = NOT_PUBLIC_RANGES.find((cidr) => inCidr(ip, cidr));
  if (inside !== undefined) return inside;
  const embedded = embeddedIpv4(ip);
  return embedded === undefined ? undefined : notPublicRange(embedded);
};

/** Whether `ip` is an address of the public internet. */
export const isPublicIp = (ip: Ip): boolean => notPublicRange(ip) === undefined;
