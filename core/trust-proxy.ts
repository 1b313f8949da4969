/**
 * TRUST_PROXY: which peers may tell us the client address. Unset: nobody (socket address).
 * A number N: the N nearest hops are proxies. Otherwise a comma list of addresses/CIDRs
 * (IPv4 or IPv6) of the proxies; "loopback" and "private" are accepted as shorthands.
 */
import { parseIp } from "./ip.ts";

export type TrustProxy =
  | { readonly kind: "none" }
  | { readonly kind: "hops"; readonly hops: number }
  | { readonly kind: "list"; readonly cidrs: ReadonlyArray<string> };

const SHORTHANDS: Record<string, ReadonlyArray<string>> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

const isCidr = (text: string): boolean => {
  const [address, bits, ...rest] = text.split("/");
  const ip = parseIp(address ?? "");
  // Zone ids and brackets are for connecting, not for naming proxies.
  if (ip === undefined || rest.length > 0 || /[%[\]]/.test(text)) return false;
  if (bits === undefined) return true;
  const width = (address ?? "").includes(":") ? 128 : 32;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= width;
};

/** Parses TRUST_PROXY; a string result is the problem found. */
export const parseTrustProxy = (text: string | undefined): TrustProxy | string => {
  const value = text?.trim() ?? "";
  if (value === "" || value === "false") return { kind: "none" };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= 10 ? { kind: "hops", hops } : "a hop count must be from 1 to 10";
  }
  const cidrs = value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .flatMap((part) => SHORTHANDS[part] ?? [part]);
  const bad = cidrs.filter((cidr) => !isCidr(cidr));
  return bad.length === 0 ? { kind: "list", cidrs } : `not an address or CIDR: ${bad.join(", ")}`;
};
