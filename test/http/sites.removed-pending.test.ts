/**
 * A removed site's pending settlements are still followed to their end. Its reconciler kept
 * them until the site was taken out of the sites file, then stopped with them still pending:
 * a transfer that landed afterwards was never credited, one that failed never closed. Now the
 * reconciler of a removed site keeps running until nothing is pending, then stops.
 */
import { afterEach, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import type { Fate, PendingSettlement } from "../../core/payments/pending-settlement.ts";
import { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { buildSitesApp, docsFolder, type SitesService, siteDefinition } from "../support/sites-app.ts";

const folder = docsFolder({ "a.md": "# Alpha\n\nAlpha answers about alpha.\n" });
const apps: Array<SitesService> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.dispose();
});

const pendingEntry: PendingSettlement = {
  signature: "txRemoved",
  kind: "paywall",
  paymentId: "",
  lease: "lease",
  resource: "/sites/alpha/paid",
  method: "GET",
  identity: "",
  queries: 0,
  payer: "payer",
  blockhash: "hash",
  // Old enough to be the reconciler's (RECONCILE_AFTER_MS), far from being given up.
  since: Date.now() - 120_000,
};

/** Resolves once `check` holds, polling; fails after `ms`. */
const eventually = async (check: () => boolean | Promise<boolean>, ms = 3_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("not within the time");
    await Bun.sleep(20);
  }
};

describe("a removed site's pending settlements (memory store)", () => {
  test("are followed to their end after the site is removed, then its reconciler stops", async () => {
    const reads: Array<string> = [];
    let fate: Fate = "unknown";
    // Only the fee payer's fate reads are used: the reconciler's part of the facilitator.
    const facilitator = {
      feePayer: {
        address: "FeePayer1111111111111111111111111111111111",
        fate: async (signature: string) => {
          reads.push(signature);
          return fate;
        },
      },
    } as unknown as ExactFacilitator;
    const service = await buildSitesApp({
      defaultDocs: folder,
      sites: [{ definition: siteDefinition("alpha"), folder }],
      facilitator,
      retireAfterMs: 10,
      reconcileEveryMs: 25,
    });
    apps.push(service);
    const alpha = service.sites.list().find((site) => site.definition.id === "alpha");
    if (alpha === undefined) throw new Error("alpha is not open");
    // The site's table itself (on memory a removed site's store is kept), read after its runtime closed.
    const table = await alpha.served.runtime.runPromise(Effect.service(PendingSettlements));
    const pendingOf = () => Effect.runPromise(table.list(10));
    await Effect.runPromise(table.record(pendingEntry));
    await eventually(() => reads.length > 0);
    await service.sites.apply({ sites: [] });
    // Past the retirement grace, still followed: it has not landed nor failed yet.
    await Bun.sleep(100);
    const before = reads.length;
    await eventually(() => reads.length > before);
    fate = "failed";
    await eventually(async () => (await pendingOf()).length === 0);
    // Nothing pending any more: the removed site's reconciler has stopped.
    await Bun.sleep(100);
    const after = reads.length;
    await Bun.sleep(150);
    expect(reads.length).toBe(after);
  });
});
