/**
 * Two example-server instances sharing one real redis-server: a payment request issued by one
 * is paid at the other, and one header raced across both gives exactly one paid response.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_CHAIN_LOOKUP_CEILINGS } from "../../core/payments/chain-lookup-budget.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useTwoExampleServers } from "../support/x402-example.ts";

describe.skipIf(!redisServerAvailable())("x402 on two instances sharing Redis", () => {
  // Sixteen copies of one header at once, three times, all from loopback: 48 lookups, past one
  // client's 30 a minute. This file tests the claim's atomicity, not the budget.
  const two = useTwoExampleServers({
    chainLookups: { ...DEFAULT_CHAIN_LOOKUP_CEILINGS, perClientPerMinute: 1_000 },
  });

  test("a request issued by one instance is paid at the other", async () => {
    const { header } = await two.first.pay("/premium-data");
    expect((await two.second.get("/premium-data", header)).status).toBe(200);
    expect((await two.first.get("/premium-data", header)).status).toBe(403);
  });

  test("one header raced across both instances: exactly one success", async () => {
    for (let round = 0; round < 3; round++) {
      const { header } = await two.first.pay("/tiered-data/basic");
      const responses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 === 0 ? two.first : two.second).get("/tiered-data/basic", header),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 403)).toHaveLength(15);
      const reasons = await Promise.all(
        responses
          .filter((response) => response.status === 403)
          .map(
            async (response) => ((await response.json()) as { Details: { reason: string } }).Details.reason,
          ),
      );
      // A loser refused by the atomic claim names the payment_id; one that arrives after the
      // winner's claim may be refused earlier, by the verifier's read of the used transaction.
      // Both are the one refusal "already used" (same code); neither may be anything else.
      for (const reason of reasons)
        expect(["payment-already-used", "signature-already-used"]).toContain(reason);
    }
  });
});
