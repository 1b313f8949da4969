/**
 * The JSON texts built by hand for speed (the status body, the payment info body and the access
 * log line) must be exactly what JSON.stringify would write, whatever the values.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { identityOf } from "../../core/client-identity.ts";
import { parseIp } from "../../core/ip.ts";
import { statusBodies, statusBody } from "../../src/http/routes/status.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { paymentInfo, paymentInfoBody } from "../../src/payments/payment-info.ts";

const view = fc.record({
  remaining: fc.nat(),
  resetAt: fc.nat({ max: 8.64e15 }),
  requiresPayment: fc.boolean(),
  free: fc.nat(),
  paid: fc.nat(),
});

/** A view the quota can produce: free + paid = remaining, all 0 when payment is required. */
const consistent = (v: { resetAt: number; requiresPayment: boolean; free: number; paid: number }) =>
  v.requiresPayment
    ? { ...v, remaining: 0, free: 0, paid: 0 }
    : { ...v, remaining: v.free + v.paid, free: v.free, paid: v.paid };

/** What the edge can put in the trusted fields: a UUID or an accepted incoming id; an identity. */
const requestId = fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9._-]{8,64}$/));
const ipText = fc.oneof(fc.ipV4(), fc.ipV6());

describe("hand-built JSON", () => {
  test("the payment info body from its template equals JSON.stringify(paymentInfo(terms, reference))", () => {
    const terms = fc.record({
      network: fc.constantFrom("devnet", "mainnet-beta", "localnet"),
      usdcMint: fc.string(),
      wallet: fc.string(),
      memoPrefix: fc.string(),
      memoRequired: fc.boolean(),
      paidDailyCap: fc.nat(),
      unitsPerQuery: fc.bigInt({ min: 1n, max: 1_000_000n }),
    });
    // References are letters and digits (adapters/shared/random-ids.ts).
    const reference = fc.stringMatching(/^[A-Za-z0-9]{1,40}$/);
    fc.assert(
      fc.property(terms, fc.array(reference, { minLength: 1, maxLength: 3 }), (t, references) => {
        const bodyFor = paymentInfoBody(t);
        for (const r of references) expect(bodyFor(r)).toBe(JSON.stringify(paymentInfo(t, r)));
      }),
    );
  });

  test("status body equals JSON.stringify of {success, ...view, rateLimit}", () => {
    fc.assert(
      fc.property(view, (v) => {
        expect(statusBody(v)).toBe(JSON.stringify({ success: true, ...v, rateLimit: v }));
      }),
    );
  });

  test("reused status bodies are always the body of the view asked for", () => {
    const views = fc.array(
      fc.oneof(
        view,
        // Few distinct views, across a day change, to exercise reuse and the reset.
        fc.record({
          resetAt: fc.constantFrom(86_400_000, 172_800_000),
          requiresPayment: fc.boolean(),
          free: fc.integer({ min: 0, max: 3 }),
          paid: fc.integer({ min: 0, max: 3 }),
        }),
      ),
      { maxLength: 200 },
    );
    fc.assert(
      fc.property(views, fc.integer({ min: 1, max: 8 }), (sequence, limit) => {
        const bodyOf = statusBodies(limit);
        for (const v of sequence) {
          // Views as core/quota.ts makes them (the cache key relies on it).
          const real = consistent(v);
          expect(bodyOf(real)).toBe(statusBody(real));
        }
      }),
    );
  });

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
