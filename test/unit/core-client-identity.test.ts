import { describe, expect, test } from "bun:test";
import { clientAddress, identityOf } from "../../core/client-identity.ts";
import type { TrustProxy } from "../../core/trust-proxy.ts";

const list: TrustProxy = { kind: "list", cidrs: ["10.0.0.0/8"] };
const who = (sources: { socket?: string; forwardedFor?: string; realIp?: string }, trust: TrustProxy) =>
  identityOf(
    clientAddress(
      { socket: sources.socket, forwardedFor: sources.forwardedFor, realIp: sources.realIp },
      trust,
    ),
  );

describe("clientAddress", () => {
  test("no trust: the socket address, whatever the headers say", () => {
    expect(
      who({ socket: "198.51.100.1", forwardedFor: "192.0.2.1", realIp: "192.0.2.2" }, { kind: "none" }),
    ).toBe("198.51.100.1");
  });

  test("trusted list: rightmost untrusted entry; untrusted peer: socket", () => {
    expect(who({ socket: "10.0.0.1", forwardedFor: "192.0.2.9, 192.0.2.1, 10.0.0.7" }, list)).toBe(
      "192.0.2.1",
    );
    expect(who({ socket: "198.51.100.1", forwardedFor: "192.0.2.1" }, list)).toBe("198.51.100.1");
  });

  test("an unreadable entry ends the walk at the socket address instead of being skipped", () => {
    expect(who({ socket: "10.0.0.1", forwardedFor: "192.0.2.66, garbage" }, list)).toBe("10.0.0.1");
    expect(who({ socket: "10.0.0.1", forwardedFor: "192.0.2.66, unknown, 10.0.0.3" }, list)).toBe("10.0.0.1");
  });

  test("proxies that write ports or brackets are understood", () => {
    expect(who({ socket: "10.0.0.1", forwardedFor: "192.0.2.5:51234" }, list)).toBe("192.0.2.5");
    expect(who({ socket: "10.0.0.1", forwardedFor: "[2001:db8::1]:443" }, list)).toBe("2001:db8:0:0::/64");
    expect(who({ socket: "10.0.0.1", realIp: "192.0.2.8" }, list)).toBe("192.0.2.8");
  });

  test("hop count: the entry that many hops from the right", () => {
    expect(who({ socket: "10.0.0.1", forwardedFor: "192.0.2.1, 192.0.2.2" }, { kind: "hops", hops: 1 })).toBe(
      "192.0.2.2",
    );
    expect(who({ socket: "10.0.0.1", forwardedFor: "192.0.2.1, 192.0.2.2" }, { kind: "hops", hops: 2 })).toBe(
      "192.0.2.1",
    );
    expect(who({ socket: "10.0.0.1", forwardedFor: "192.0.2.1, junk" }, { kind: "hops", hops: 1 })).toBe(
      "10.0.0.1",
    );
  });

  test("IPv4-mapped IPv6 and IPv6 /64 grouping", () => {
    expect(who({ socket: "::ffff:192.0.2.3" }, { kind: "none" })).toBe("192.0.2.3");
    expect(who({ socket: "2001:db8:1:2:aaaa::1" }, { kind: "none" })).toBe(
      who({ socket: "2001:db8:1:2::ffff" }, { kind: "none" }),
    );
    expect(who({ socket: "nonsense" }, { kind: "none" })).toBe("unknown");
  });
});
