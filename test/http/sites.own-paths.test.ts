/**
 * Every answer names its own site's paths. A hosted site's 402 and payment info sent visitors to
 * the default site's POST /api/payment (where the transfer was refused as another client's), and
 * its llms.txt to the default site's chat. Under `/sites/<id>/` the paths carry that prefix; on
 * the site's own host name they are the usual ones. A transfer whose memo is another site's
 * reference is refused with the site and the path where it is claimed, not as another client's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type * as Layer from "effect/Layer";
import { encodeBase58 } from "../../core/base58.ts";
import type { ChainLookup, ChainReader } from "../../core/ports/chain-reader.ts";
import { recentBlockTime, USDC_MINT, usdcPayment, WALLET } from "../support/parsed-tx.ts";
import { buildSitesApp, docsFolder, type SitesService, siteDefinition } from "../support/sites-app.ts";
import { scriptedChain } from "../support/test-layers.ts";
import { offlineFacilitator } from "../support/x402-v2.ts";

const folder = docsFolder({
  "guide.md": "# Alpha guide\n\nThe alpha gadget is reset with the reset button on its back.\n",
});
const VISITOR = "198.51.100.61";
const lookups = new Map<string, ChainLookup>();
let service: SitesService;

beforeAll(async () => {
  service = await buildSitesApp({
    defaultDocs: folder,
    chain: {
      layer: scriptedChain(lookups, { value: undefined }) as Layer.Layer<ChainReader, unknown>,
      wallet: WALLET,
      usdcMint: USDC_MINT,
    },
    sites: [{ definition: siteDefinition("alpha", { freeQueries: 1, hosts: ["docs.alpha.test"] }), folder }],
  });
});
afterAll(() => service?.dispose());

interface PaymentBlock {
  readonly paymentEndpoint: string;
  readonly instructions: ReadonlyArray<string>;
  readonly memo: string;
}

const onHost = { headers: { Host: "docs.alpha.test" } };

describe("a hosted site's answers name its own paths", () => {
  test("the 402 of /sites/<id>/api/chat names the site's chat and payment endpoint", async () => {
    await service.ask("/sites/alpha/api/chat", "How is the alpha gadget reset?", VISITOR);
    const refused = await service.ask("/sites/alpha/api/chat", "How is the alpha gadget reset?", VISITOR);
    expect(refused.status).toBe(402);
    const body = (await refused.json()) as { resource: string; payment: PaymentBlock };
    expect(body.resource).toBe("/sites/alpha/api/chat");
    expect(body.payment.paymentEndpoint).toBe("/sites/alpha/api/payment");
    expect(body.payment.instructions.join("\n")).toContain("POST /sites/alpha/api/payment");
    expect(body.payment.memo.startsWith("docschat:alpha:")).toBe(true);
  });

  test("payment info names /sites/<id>/api/payment there, and /api/payment on the site's host", async () => {
    const there = (await (
      await service.call("/sites/alpha/api/payment/info", {}, VISITOR)
    ).json()) as PaymentBlock;
    expect(there.paymentEndpoint).toBe("/sites/alpha/api/payment");
    const own = (await (await service.call("/api/payment/info", onHost, VISITOR)).json()) as PaymentBlock;
    expect(own.paymentEndpoint).toBe("/api/payment");
    expect(own.memo).toBe(there.memo);
    const service402 = (await (await service.call("/api/payment/info", {}, VISITOR)).json()) as PaymentBlock;
    expect(service402.memo.startsWith("docschat:alpha:")).toBe(false);
  });

  test("llms.txt points at the site's own chat and MCP endpoint", async () => {
    const there = await (await service.call("/sites/alpha/llms.txt")).text();
    expect(there).toContain("POST /sites/alpha/api/chat");
    expect(there).toContain("/sites/alpha/mcp");
    const own = await (await service.call("/llms.txt", onHost)).text();
    expect(own).toContain("POST /api/chat,");
  });

  test("a transfer carrying a site's memo is sent to that site, not refused as another client's", async () => {
    const info = (await (
      await service.call("/sites/alpha/api/payment/info", {}, VISITOR)
    ).json()) as PaymentBlock;
    const signature = encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => (i * 7 + 3) % 256 || 1));
    lookups.set(signature, {
      kind: "found",
      transaction: usdcPayment(100_000n, { blockTime: recentBlockTime(), memos: [info.memo] }),
    });
    const pay = (path: string) =>
      service.call(
        path,
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ signature, amount: 0.1, token: "USDC" }),
        },
        VISITOR,
      );
    const elsewhere = await pay("/api/payment");
    expect(elsewhere.status).toBe(400);
    const refusal = (await elsewhere.json()) as { code: string; error: string };
    expect(refusal.code).toBe("MEMO_OTHER_SITE");
    expect(refusal.error).toContain("/sites/alpha/api/payment");
    // Refused there, it is still the site's to credit.
    expect((await pay("/sites/alpha/api/payment")).status).toBe(200);
  });
});

describe("a hosted site's MCP offer and its host's fully qualified name", () => {
  test("the MCP payment offer of /sites/<id>/mcp names that endpoint, not the root site's", async () => {
    const paid = await buildSitesApp({
      defaultDocs: folder,
      facilitator: await offlineFacilitator(),
      sites: [{ definition: siteDefinition("alpha", { freeQueries: 0 }), folder }],
    });
    try {
      const response = await paid.call("/sites/alpha/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "ask_docs",
            arguments: { question: "How is the alpha gadget reset?" },
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": { extensions: { "org.x402/payment": {} } },
            },
          },
        }),
      });
      const { result } = (await response.json()) as {
        result: { paymentRequired?: { resource?: { url?: string } } };
      };
      expect(result.paymentRequired?.resource?.url).toEndWith("/sites/alpha/mcp");
    } finally {
      await paid.dispose();
    }
  });

  test("a site's host name with the trailing dot of a fully qualified name is the same site", async () => {
    const fqdn = { headers: { Host: "docs.alpha.test." } };
    const info = (await (await service.call("/api/payment/info", fqdn, VISITOR)).json()) as PaymentBlock;
    expect(info.memo.startsWith("docschat:alpha:")).toBe(true);
    // The service's own routes are not answered on a site's host, however it is written.
    expect((await service.call("/metrics", fqdn, VISITOR)).status).toBe(404);
  });
});
