import { describe, expect, test } from "bun:test";
import { parseTrustProxy } from "../../core/trust-proxy.ts";

describe("parseTrustProxy", () => {
  test("unset, blank or false: trust nobody", () => {
    for (const value of [undefined, "", "  ", "false"])
      expect(parseTrustProxy(value)).toEqual({ kind: "none" });
  });

  test("a hop count from 1 to 10", () => {
    expect(parseTrustProxy("1")).toEqual({ kind: "hops", hops: 1 });
    expect(parseTrustProxy(" 10 ")).toEqual({ kind: "hops", hops: 10 });
    expect(parseTrustProxy("0")).toBe("a hop count must be from 1 to 10");
    expect(parseTrustProxy("11")).toBe("a hop count must be from 1 to 10");
  });

  test("addresses and CIDRs, IPv4 and IPv6", () => {
    expect(parseTrustProxy("10.0.0.1, 192.168.0.0/16,::1, 2001:db8::/32, 0.0.0.0/0, ::/0")).toEqual({
      kind: "list",
      cidrs: ["10.0.0.1", "192.168.0.0/16", "::1", "2001:db8::/32", "0.0.0.0/0", "::/0"],
    });
    expect(parseTrustProxy("::ffff:10.0.0.1")).toEqual({ kind: "list", cidrs: ["::ffff:10.0.0.1"] });
  });

  test("loopback and private shorthands expand", () => {
    expect(parseTrustProxy("loopback")).toEqual({ kind: "list", cidrs: ["127.0.0.0/8", "::1/128"] });
    expect(parseTrustProxy("private,loopback")).toEqual({
      kind: "list",
      cidrs: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "127.0.0.0/8", "::1/128"],
    });
  });

  const bad: ReadonlyArray<readonly [string, string]> = [
    ["256.1.1.1", "256.1.1.1"],
    ["10.0.0.0/33", "10.0.0.0/33"],
    ["::1/129", "::1/129"],
    ["10.0.0.0/8/8", "10.0.0.0/8/8"],
    ["10.0.0.0/", "10.0.0.0/"],
    ["10.0.0", "10.0.0"],
    ["proxy.internal", "proxy.internal"],
    ["true", "true"],
    ["*", "*"],
    ["10.0.0.1, nginx", "nginx"],
    ["-1", "-1"],
    ["fe80::1%eth0", "fe80::1%eth0"],
  ];
  for (const [value, named] of bad) {
    test(`"${value}" is refused, naming "${named}"`, () => {
      const result = parseTrustProxy(value);
      expect(typeof result).toBe("string");
      expect(result).toBe(`not an address or CIDR: ${named}`);
    });
  }
});
