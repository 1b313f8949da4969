/**
 * The one list of non-public addresses (core/ip.ts) that the crawler and the paying client
 * refuse: every spelling of a private, loopback or link-local address is caught, IPv6 forms
 * that carry an IPv4 address are judged by that address, and public addresses pass.
 */
import { describe, expect, test } from "bun:test";
import { isPublicIp, notPublicRange, parseIp } from "../../core/ip.ts";

const judge = (text: string): string | undefined => {
  const ip = parseIp(text);
  if (ip === undefined) throw new Error(`${text} is not an address`);
  return notPublicRange(ip);
};

describe("not public: the range each address is refused by", () => {
  const table: ReadonlyArray<readonly [string, string]> = [
    ["0.0.0.0", "0.0.0.0/8"],
    ["10.1.2.3", "10.0.0.0/8"],
    ["100.64.0.1", "100.64.0.0/10"],
    ["100.127.255.254", "100.64.0.0/10"],
    ["127.0.0.1", "127.0.0.0/8"],
    ["169.254.169.254", "169.254.0.0/16"],
    ["172.31.255.255", "172.16.0.0/12"],
    ["192.0.0.1", "192.0.0.0/24"],
    ["192.0.2.10", "192.0.2.0/24"],
    ["192.88.99.1", "192.88.99.0/24"],
    ["192.168.1.1", "192.168.0.0/16"],
    ["198.18.0.1", "198.18.0.0/15"],
    ["198.19.255.255", "198.18.0.0/15"],
    ["198.51.100.7", "198.51.100.0/24"],
    ["203.0.113.9", "203.0.113.0/24"],
    ["224.0.0.251", "224.0.0.0/4"],
    ["240.0.0.1", "240.0.0.0/4"],
    ["255.255.255.255", "240.0.0.0/4"],
    // IPv4-mapped: judged as the IPv4 address it is.
    ["::ffff:127.0.0.1", "127.0.0.0/8"],
    ["::ffff:a9fe:a9fe", "169.254.0.0/16"],
    // IPv4-compatible (deprecated), unspecified and loopback.
    ["::7f00:1", "::/96"],
    ["::127.0.0.1", "::/96"],
    ["::", "::/96"],
    ["::1", "::/96"],
    // IPv4-translated.
    ["::ffff:0:7f00:1", "::ffff:0:0:0/96"],
    ["::ffff:0:808:808", "::ffff:0:0:0/96"],
    // NAT64, well-known prefix: the embedded IPv4 address decides.
    ["64:ff9b::7f00:1", "127.0.0.0/8"],
    ["64:ff9b::169.254.169.254", "169.254.0.0/16"],
    ["64:ff9b::a00:1", "10.0.0.0/8"],
    // NAT64, local-use prefix: refused whole.
    ["64:ff9b:1::808:808", "64:ff9b:1::/48"],
    // 6to4: the IPv4 address in bits 16..47 decides.
    ["2002:7f00:1::", "127.0.0.0/8"],
    ["2002:a9fe:a9fe::1", "169.254.0.0/16"],
    ["2002:c0a8:101:1::1", "192.168.0.0/16"],
    // Teredo: server 65.54.227.120, client 127.0.0.1 obfuscated (80ff:fffe), and a public client.
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "2001::/23"],
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2001::/23"],
    ["2001:2::1", "2001::/23"],
    ["100::1", "100::/64"],
    ["2001:db8::1", "2001:db8::/32"],
    ["3fff::1", "3fff::/20"],
    ["5f00::1", "5f00::/16"],
    ["fc00::1", "fc00::/7"],
    ["fd12:3456::1", "fc00::/7"],
    ["fe80::1", "fe80::/10"],
    ["fe80::1%eth0", "fe80::/10"],
    ["fec0::1", "fec0::/10"],
    ["ff02::1", "ff00::/8"],
    ["[::1]", "::/96"],
  ];
  for (const [address, range] of table)
    test(`${address} is in ${range}`, () => expect(judge(address)).toBe(range));
});

describe("public addresses pass", () => {
  const table = [
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.1",
    "192.0.1.255",
    "192.169.0.1",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2001:4860:4860::8888",
    "2606:4700::1111",
    "2a00:1450:4001::1",
  ];
  for (const address of table)
    test(`${address} is public`, () => expect(isPublicIp(parseIp(address)!)).toBe(true));
});
