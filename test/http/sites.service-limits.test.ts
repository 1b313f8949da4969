/**
 * The service's limits are the service's, not each site's (src/http/service-limiters.ts): on a
 * service hosting sites, built as boot.ts builds it, the RPC relay's budget, wallet sign-in
 * attempts, the consoles' and METRICS_TOKEN's wrong-token lockouts count across the default
 * site and every hosted one; /readyz of every site makes one chain probe (getSlot) per 5 s for
 * the whole service and loads no hosted site's index; /llms.txt and /llms-full.txt of every
 * site count against the protection limit. The upstream is a loopback JSON-RPC server that
 * counts the calls it gets; the clock is the test's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import * as Redacted from "effect/Redacted";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const OPERATOR = "operator-token-0123456789abcdef";
const ALPHA_OWNER = "alpha-owner-token-0123456789";
const METRICS = "metrics-token-0123456789abcdef";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const calls: string[] = [];
let rpc: ReturnType<typeof Bun.serve>;
let clock = 1_699_999_990_000; // 10 s into a minute

const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nThe service answers questions about its setup.\n" }),
  alpha: docsFolder({ "alpha.md": "# Zorblax\n\nThe Zorblax frobnicator takes a level from one to nine.\n" }),
  beta: docsFolder({ "beta.md": "# Quuxly\n\nQuuxly shards every widget table by tenant.\n" }),
  gamma: docsFolder({ "gamma.md": "# Wibble\n\nWibble caches every answer for an hour.\n" }),
};
const sites = (["alpha", "beta", "gamma"] as const).map((id) => ({
  definition: siteDefinition(id, {
    docs: { kind: "folder", path: docs[id] },
    ...(id === "alpha" ? { ownerTokenSha256: sha256(ALPHA_OWNER) } : {}),
  }),
  folder: docs[id],
}));

type Service = Awaited<ReturnType<typeof buildSitesApp>>;
let service: Service;

beforeAll(async () => {
  rpc = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      const { id, method } = (await request.json()) as { id: unknown; method: string };
      calls.push(method);
      const result =
        method === "getLatestBlockhash"
          ? { context: { slot: 1 }, value: { blockhash: "1".repeat(32), lastValidBlockHeight: 100 } }
          : 1234;
      return Response.json({ jsonrpc: "2.0", id, result });
    },
  });
  service = await buildSitesApp({
    sites,
    defaultDocs: docs.default,
    adminToken: OPERATOR,
    rpcUrl: `http://127.0.0.1:${rpc.port}`,
    surface: { metricsToken: Redacted.make(METRICS) },
    ceilings: { "rpc-relay-per-client": 100, "rpc-relay": 4 },
    now: () => clock,
  });
}, 120_000);
afterAll(async () => {
  await service?.dispose();
  rpc?.stop(true);
});

let client = 0;
const nextClient = () => `198.18.7.${++client}`;
const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

describe("one set of the service's limits for every site", () => {
  test("the RPC relay's budget for everyone is spent across sites' /api/solana-rpc, then refused on each", async () => {
    calls.length = 0;
    const blockhash = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getLatestBlockhash", params: [] });
    const relay = (prefix: string) =>
      service.call(
        `${prefix}/api/solana-rpc`,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: blockhash },
        nextClient(),
      );
    const statuses = [];
    for (const prefix of ["/sites/alpha", "/sites/beta", "/sites/gamma", "", "/sites/alpha", "/sites/beta"])
      statuses.push((await relay(prefix)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(calls.filter((method) => method === "getLatestBlockhash")).toHaveLength(4);
    const refused = await relay("/sites/gamma");
    expect(await refused.json()).toMatchObject({
      error: { code: -32005, message: "RPC relay: the service's budget for this minute is spent" },
    });
    // A reload of the sites file (alpha changed, so its routes are built anew) resets nothing.
    await service.sites.apply({
      sites: sites.map(({ definition }) =>
        definition.id === "alpha" ? { ...definition, title: "Alpha" } : definition,
      ),
    });
    expect((await relay("/sites/alpha")).status).toBe(429);
    expect(calls.filter((method) => method === "getLatestBlockhash")).toHaveLength(4);
  });

  test("sign-in attempts of one client are counted across sites: the 21st anywhere is refused", async () => {
    const from = nextClient();
    const paths = ["/sites/alpha", "/sites/beta", "/sites/gamma", ""];
    for (let i = 0; i < 20; i++) {
      const res = await service.call(`${paths[i % paths.length]}/api/session/challenge`, {}, from);
      expect(res.status).toBe(200);
    }
    for (const prefix of paths) {
      const refused = await service.call(`${prefix}/api/session/challenge`, {}, from);
      expect(refused.status).toBe(429);
      expect((await refused.json()).code).toBe("TOO_MANY_SIGN_IN_ATTEMPTS");
    }
    expect((await service.call("/sites/beta/api/session/challenge", {}, nextClient())).status).toBe(200);
  });

  test("wrong console tokens count across sites' consoles: five spread over them lock out every console", async () => {
    const from = nextClient();
    const paths = ["/sites/alpha", "/sites/beta", "/sites/gamma", "", "/sites/beta"];
    for (const [i, prefix] of paths.entries())
      expect((await service.call(`${prefix}/api/admin/insights`, bearer(`guess-${i}`), from)).status).toBe(
        401,
      );
    // Even the right tokens: the operator's on any console, the owner's on its own.
    const locked = await service.call("/api/admin/insights", bearer(OPERATOR), from);
    expect(locked.status).toBe(429);
    expect((await locked.json()).code).toBe("TOO_MANY_ATTEMPTS");
    expect((await service.call("/sites/alpha/api/admin/insights", bearer(ALPHA_OWNER), from)).status).toBe(
      429,
    );
    expect((await service.call("/sites/gamma/api/admin/insights", bearer(OPERATOR), from)).status).toBe(429);
    expect(
      (await service.call("/sites/alpha/api/admin/insights", bearer(ALPHA_OWNER), nextClient())).status,
    ).toBe(200);
  });

  test("/metrics is the service's, once: no site has its own, and wrong tokens lock it out", async () => {
    const from = nextClient();
    for (const prefix of ["/sites/alpha", "/sites/beta"])
      expect((await service.call(`${prefix}/metrics`, bearer(METRICS), from)).status).toBe(404);
    for (const i of [0, 1, 2, 3, 4])
      expect((await service.call("/metrics", bearer(`guess-${i}`), from)).status).toBe(401);
    const locked = await service.call("/metrics", bearer(METRICS), from);
    expect(locked.status).toBe(429);
    expect((await locked.json()).code).toBe("TOO_MANY_ATTEMPTS");
    expect((await service.call("/metrics", bearer(METRICS), nextClient())).status).toBe(200);
  });

  test("/readyz is the service's: one chain probe per 5 s, no hosted index loaded, none under a site", async () => {
    clock += 60_000;
    calls.length = 0;
    for (const path of ["/sites/alpha/readyz", "/sites/beta/readyz"])
      expect((await service.call(path, {}, nextClient())).status).toBe(404);
    for (let i = 0; i < 4; i++) {
      const res = await service.call("/readyz", {}, nextClient());
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: "ready",
        checks: { store: "ok", chain: "ok", retrieval: "ok" },
      });
    }
    expect(calls.filter((method) => method === "getSlot")).toHaveLength(1);
    // A stranger's /readyz does not load a site's index (each loads on its first question).
    expect(service.sites.indexes()).toEqual([]);
    clock += 5_000;
    expect((await service.call("/readyz", {}, nextClient())).status).toBe(200);
    expect(calls.filter((method) => method === "getSlot")).toHaveLength(2);
  });
});

describe("the protection limit of llms.txt, on every site", () => {
  let strict: Service;
  beforeAll(async () => {
    strict = await buildSitesApp({
      sites: sites.slice(0, 2),
      defaultDocs: docs.default,
      protectionRps: 2,
      now: () => clock,
    });
  }, 120_000);
  afterAll(async () => strict?.dispose());

  test("/llms.txt and /llms-full.txt of every site count against the protection limit", async () => {
    const from = nextClient();
    expect((await strict.call("/sites/alpha/llms.txt", {}, from)).status).toBe(200);
    expect((await strict.call("/sites/beta/llms.txt", {}, from)).status).toBe(200);
    expect((await strict.call("/sites/alpha/llms.txt", {}, from)).status).toBe(429);
    expect((await strict.call("/llms.txt", {}, from)).status).toBe(429);
    const full = nextClient();
    expect((await strict.call("/sites/beta/llms-full.txt", {}, full)).status).toBe(200);
    expect((await strict.call("/sites/beta/llms-full.txt", {}, full)).status).toBe(200);
    expect((await strict.call("/sites/beta/llms-full.txt", {}, full)).status).toBe(429);
  });
});
