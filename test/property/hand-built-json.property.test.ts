/**
 * The access log line, built by hand for speed, must be exactly what JSON.stringify would write,
 * whatever the values.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { identityOf } from "../../core/client-identity.ts";
import { parseIp } from "../../core/ip.ts";
import { makeLogger } from "../../src/observability/log.ts";

/** What the edge can put in the trusted fields: a UUID or an accepted incoming id; an identity. */
const requestId = fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9._-]{8,64}$/));
const ipText = fc.oneof(fc.ipV4(), fc.ipV6());

describe("hand-built JSON", () => {
  test("identities are made of characters JSON never escapes", () => {
    fc.assert(
      fc.property(ipText, (text) => {
        const ip = parseIp(text);
        expect(ip).toBeDefined();
        expect(identityOf(ip)).toMatch(/^[0-9a-f:./]+$/);
      }),
    );
    expect(identityOf(undefined)).toBe("unknown");
  });

  test("access line equals the JSON the generic logger writes, for any method and path", () => {
    fc.assert(
      fc.property(
        requestId,
        fc.string({ unit: "binary" }),
        fc.string({ unit: "binary" }),
        fc.integer({ min: 100, max: 599 }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        ipText,
        (id, method, path, status, ms, ip) => {
          const lines: string[] = [];
          const logger = makeLogger((line) => lines.push(line));
          const identity = identityOf(parseIp(ip));
          logger.access({ requestId: id, method, path, status, ms, identity });
          const line = JSON.parse(lines[0] ?? "");
          expect(lines[0]).toBe(
            JSON.stringify({
              time: line.time,
              level: line.level,
              msg: "request",
              requestId: id,
              method,
              path,
              status,
              ms,
              identity,
            }),
          );
          const level =
            status >= 500 ? "ERROR" : status >= 400 && status !== 402 && status !== 404 ? "WARN" : "INFO";
          expect(line.level).toBe(level);
        },
      ),
    );
  });
});
