/** IP address parsing and CIDR matching over bigints (IPv4 and IPv6, incl. IPv4-mapped). */
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
