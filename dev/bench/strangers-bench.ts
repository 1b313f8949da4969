/**
 * The stranger flood (`npm run bench -- strangers`, on demand): what a stranger with many
 * addresses can make the operator pay for or keep. The real service (memory store, then Redis)
 * with a local chain behind a JSON-RPC proxy that counts every call, and three floods from
 * BENCH_STRANGERS_ADDRESSES (default 10,000) IPv6 /64s sent through X-Forwarded-For, each for
 * BENCH_STRANGERS_SECONDS (default 60):
 * - 402s: POST /api/chat past the free questions (RATE_LIMIT_FREE_QUERIES=0: every ask is a 402);
 * - random signatures: POST /api/chat with an X-Payment-Authorization on one 402's payment_id, a
 *   random transaction hash and a valid ed25519 signature by the sender's own fresh key, and
 *   POST /api/payment with random signatures, in turn;
 * - sign-ins: a challenge and a signed sign-in, 100 wallets each signing in from every address;
 * - fresh wallets: the same, each sign-in by a keypair never seen (they cost a stranger nothing);
 * then the floods on the hosted sites' ceilings (strangers-ceilings.ts, over the sites of
 * strangers-sites.ts): payment details from BENCH_STRANGERS_INFO_ADDRESSES (default 60,000)
 * addresses, the free answers of every site, and sites asked in turn so each question needs a load.
 * After each flood: RPC calls made, the bounded structures' entries (/metrics), the service's
 * RSS, Redis used_memory and keys, beside the quiet baseline read after a warm-up, held to the
 * goals below.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSigner, getBase58Decoder, type KeyPairSigner } from "@solana/kit";
import { CEILINGS } from "../../core/ceilings/ceilings.ts";
import { CHAIN_LOOKUPS_PER_MINUTE, LOOKUP_WINDOW_MS } from "../../core/payments/chain-lookup-budget.ts";
import { encodeAuthorizationHeader } from "../../core/payments/x402.ts";
import { MAX_CREDITLESS_SESSIONS } from "../../core/sign-in/session-ceilings.ts";
import { signAuthorization } from "../../src/payments/authorization-signature.ts";
import { chainEnv, startTestChain } from "../../test/support/localnet.ts";
import { rawClient, startRedisServer } from "../../test/support/redis-server.ts";
import { startService } from "../../test/support/service-process.ts";
import { proofFor } from "../../test/support/sign-in-client.ts";
import { BENCH_OUTPUT_TAIL, rssMb } from "./bench-service.ts";
import { type Figure, record } from "./report.ts";
import { startCountingRpcProxy } from "./servers/counting-rpc-proxy.ts";
import {
  ceilingFigures,
  coldLoadsFlood,
  type FloodKit,
  freeAnswersFlood,
  infoFlood,
} from "./strangers-ceilings.ts";
import { FREE_PER_SITE, prepareSites, SITES, SITES_MEMORY_MB } from "./strangers-sites.ts";

const SECONDS = Number(process.env.BENCH_STRANGERS_SECONDS ?? 60);
const ADDRESSES = Number(process.env.BENCH_STRANGERS_ADDRESSES ?? 10_000);
const INFO_ADDRESSES = Number(process.env.BENCH_STRANGERS_INFO_ADDRESSES ?? 60_000);
/** Addresses taking the free answers of every site, site by site. */
const FREE_ADDRESSES = 200;
const CONCURRENCY = 16;
const WALLETS = 100;
const METRICS_TOKEN = "strangers-bench-metrics-token-0123";
/** The goals: each bounded structure within its cap, and the memory a flood adds small. */
const GOALS = { structureEntries: 20_000, redisGrowthMb: 20, rssGrowthMb: 64 } as const;
/** The defaults of the ceilings the hosted sites' floods meet (core/ceilings/ceilings.ts). */
const FREE_ACROSS_SITES = CEILINGS["free-questions-across-sites"].limit.default;
const COLD_LOADS_PER_MINUTE = CEILINGS["cold-index-loads"].limit.default;
/** At most two RPC calls per admitted lookup (a signature never seen: the lookup and its retry). */
const RPC_CALLS_PER_LOOKUP = 2;

/** The n-th stranger: an IPv6 /64 of its own (the service counts a /64 as one client). */
const stranger = (n: number) =>
  `2001:db8:${((n >> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}::1`;
const randomBase58 = (bytes: number) =>
  getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(bytes)));

interface Reading {
  readonly rpcCalls: number;
  readonly entries: Readonly<Record<string, number>>;
  readonly rssMb: number;
  readonly redisMb: number | undefined;
  /** Redis keys (DBSIZE): every site's state; the memory store's hosted sites have no /metrics. */
  readonly redisKeys: number | undefined;
  /** Hosted sites' index loads so far. */
  readonly loads: number;
  /** Questions refused by the cold-index-loads ceiling so far. */
  readonly coldRefused: number;
}

const run = async (storeName: "memory" | "Redis") => {
  const chain = await startTestChain();
  const rpc = await startCountingRpcProxy(chain.url);
  const redis = storeName === "Redis" ? await startRedisServer({ args: ["--appendonly", "no"] }) : undefined;
  const raw = redis === undefined ? undefined : rawClient(redis.url);
  const work = mkdtempSync(join(tmpdir(), "strangers-bench-"));
  const sites = await prepareSites(work);
  const service = await startService({
    cwd: work,
    outputTail: BENCH_OUTPUT_TAIL,
    env: {
      ...chainEnv(chain),
      SOLANA_RPC_URL: rpc.url,
      TRUST_PROXY: "loopback",
      RATE_LIMIT_FREE_QUERIES: "0",
      METRICS_TOKEN,
      ...sites.env,
      ...(redis === undefined ? {} : { REDIS_URL: redis.url }),
    },
  });
  const call = (path: string, from: string, init: RequestInit = {}) =>
    fetch(`${service.url}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), "X-Forwarded-For": from },
    });
  const post = (path: string, from: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, from, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const read = async (): Promise<Reading> => {
    const text = await (
      await fetch(`${service.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const entries: Record<string, number> = {};
    for (const [, name, value] of text.matchAll(/^bounded_structure_entries\{structure="([^"]+)"\} (\d+)/gm))
      entries[name ?? ""] = Number(value);
    const usedMemory =
      raw === undefined ? undefined : /used_memory:(\d+)/.exec(await raw.info("memory"))?.[1];
    const counter = (line: string) => Number(new RegExp(`^${line} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
    return {
      rpcCalls: rpc.total(),
      entries,
      rssMb: rssMb(service.pid),
      redisMb: usedMemory === undefined ? undefined : Number(usedMemory) / 2 ** 20,
      redisKeys: raw === undefined ? undefined : await raw.dbsize(),
      loads: counter("site_index_loads_total"),
      coldRefused: counter('ceiling_refusals_total\\{ceiling="cold-index-loads"\\}'),
    };
  };
  /** `send(n)` for the n-th request, CONCURRENCY at a time, for SECONDS or `count` requests; statuses counted. */
  const flood = async (send: (n: number) => Promise<Response>, count = Number.POSITIVE_INFINITY) => {
    const statuses: Record<number, number> = {};
    const until =
      count === Number.POSITIVE_INFINITY ? performance.now() + SECONDS * 1000 : Number.POSITIVE_INFINITY;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until && next < count) {
          const response = await send(next++);
          await response.arrayBuffer();
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        }
      }),
    );
    return { requests: next, statuses };
  };
  try {
    const ask = { message: "How do I write a file?" };
    for (let i = 0; i < 50; i++) await (await post("/api/chat", stranger(i), ask)).arrayBuffer();
    const quiet = await read();

    const flood402 = await flood((n) => post("/api/chat", stranger(n % ADDRESSES), ask));
    const after402 = await read();

    const offer = (await (await post("/api/chat", stranger(0), ask)).json()) as Record<string, string>;
    const keys = await Promise.all(Array.from({ length: 256 }, () => generateKeyPairSigner()));
    const guessed = async (n: number, signer: KeyPairSigner) => {
      const unsigned = {
        payment_id: offer.payment_id ?? "",
        actual_amount: offer.max_amount_required ?? "0.01",
        payment_address: offer.payment_address ?? "",
        asset_address: offer.asset_address ?? "",
        network: (offer.network ?? "chain-devnet") as "chain-devnet",
        timestamp: new Date().toISOString(),
        public_key: signer.address,
        transaction_hash: randomBase58(64),
      };
      const header = encodeAuthorizationHeader({
        ...unsigned,
        signature: await signAuthorization(signer, unsigned),
      });
      return post("/api/chat", stranger(n % ADDRESSES), ask, { "X-Payment-Authorization": header });
    };
    const rpcBefore = rpc.total();
    const startedAt = Date.now();
    const floodSignatures = await flood((n) =>
      n % 2 === 0
        ? guessed(n, keys[(n >> 1) % keys.length] as KeyPairSigner)
        : post("/api/payment", stranger(n % ADDRESSES), {
            signature: randomBase58(64),
            amount: 0.01,
            token: "USDC",
          }),
    );
    const afterSignatures = await read();
    const signatureRpc = afterSignatures.rpcCalls - rpcBefore;
    // The budget is per UTC minute: the flood spans this many of its windows.
    const windows = Math.floor(Date.now() / LOOKUP_WINDOW_MS) - Math.floor(startedAt / LOOKUP_WINDOW_MS) + 1;

    const wallets = await Promise.all(Array.from({ length: WALLETS }, () => generateKeyPairSigner()));
    const floodSignIns = await flood(async (n) => {
      const from = stranger(n % ADDRESSES);
      const challenge = await call("/api/session/challenge", from);
      if (challenge.status !== 200) return challenge;
      const proof = await proofFor(wallets[n % WALLETS] as KeyPairSigner, await challenge.json());
      return post("/api/session", from, { proof });
    });
    const afterSignIns = await read();

    // Fresh keypairs: every sign-in by a wallet never seen, as a stranger's script would.
    const floodFresh = await flood(async (n) => {
      const from = stranger(n % ADDRESSES);
      const challenge = await call("/api/session/challenge", from);
      if (challenge.status !== 200) return challenge;
      const proof = await proofFor(await generateKeyPairSigner(), await challenge.json());
      return post("/api/session", from, { proof });
    });
    const afterFresh = await read();

    const kit: FloodKit<Reading> = {
      stranger,
      get: (path, from) => call(path, from),
      post: (path, from, body) => post(path, from, body),
      read,
      flood,
      sites: sites.ids,
    };
    const beforeInfo = await read();
    const floodInfo = await infoFlood(kit, INFO_ADDRESSES);
    const afterInfo = await read();
    const loadsSince = Date.now();
    const floodFree = await freeAnswersFlood(kit, FREE_ADDRESSES);
    const beforeCold = await read();
    const floodCold = await coldLoadsFlood(kit, loadsSince);
    const afterCold = await read();
    return {
      quiet,
      flood402,
      after402,
      floodSignatures,
      afterSignatures,
      signatureRpc,
      windows,
      floodSignIns,
      afterSignIns,
      floodFresh,
      afterFresh,
      beforeInfo,
      floodInfo,
      afterInfo,
      floodFree,
      beforeLoads: afterInfo,
      beforeCold,
      floodCold,
      afterCold,
    };
  } finally {
    await service.dispose();
    raw?.disconnect();
    await redis?.stop();
    await rpc.stop();
    await chain.stop();
    rmSync(work, { recursive: true, force: true });
  }
};

const mb = (value: number | undefined) => (value === undefined ? "-" : `${value.toFixed(1)} MB`);
const statusText = (statuses: Record<number, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${count} x ${status}`)
    .join(", ");
const figures: Figure[] = [];
const notes: string[] = [];
for (const storeName of ["memory", "Redis"] as const) {
  const r = await run(storeName);
  const largest = (reading: Reading) => Math.max(0, ...Object.values(reading.entries));
  const entriesText = (reading: Reading) =>
    ["payment_requests", "sign_in_nonces", "wallet_sessions", "payment_lookups"]
      .map((name) => `${name} ${reading.entries[name] ?? 0}`)
      .join(", ");
  const rpcCeiling = r.windows * RPC_CALLS_PER_LOOKUP * CHAIN_LOOKUPS_PER_MINUTE;
  console.log(`\n${storeName}:`, JSON.stringify(r, null, 1));
  figures.push(
    {
      measure: `${storeName}: 402 flood, ${r.flood402.requests.toLocaleString("en")} chat asks from ${ADDRESSES.toLocaleString("en")} addresses`,
      value: `${entriesText(r.after402)}; RSS ${mb(r.after402.rssMb)}${r.after402.redisMb === undefined ? "" : `, Redis ${mb(r.after402.redisMb)}`}`,
      baseline: `${entriesText(r.quiet)}; RSS ${mb(r.quiet.rssMb)}${r.quiet.redisMb === undefined ? "" : `, Redis ${mb(r.quiet.redisMb)}`}`,
      goal: `<= ${GOALS.structureEntries.toLocaleString("en")} entries each${storeName === "Redis" ? `, Redis +< ${GOALS.redisGrowthMb} MB` : ""}`,
      met:
        largest(r.after402) <= GOALS.structureEntries &&
        (r.after402.redisMb === undefined ||
          r.quiet.redisMb === undefined ||
          r.after402.redisMb - r.quiet.redisMb < GOALS.redisGrowthMb),
    },
    {
      measure: `${storeName}: random-signature flood, ${r.floodSignatures.requests.toLocaleString("en")} requests (chat with a 402's payment_id, /api/payment)`,
      value: `${r.signatureRpc} RPC calls over ${r.windows} budget minute(s)`,
      baseline: "0 (nothing paid)",
      goal: `<= ${RPC_CALLS_PER_LOOKUP * CHAIN_LOOKUPS_PER_MINUTE} a minute (${CHAIN_LOOKUPS_PER_MINUTE} lookups, the global budget)`,
      met: r.signatureRpc <= rpcCeiling,
    },
    {
      measure: `${storeName}: sign-in flood, ${r.floodSignIns.requests.toLocaleString("en")} sign-ins by ${WALLETS} wallets`,
      value: `${entriesText(r.afterSignIns)}; RSS ${mb(r.afterSignIns.rssMb)}${r.afterSignIns.redisMb === undefined ? "" : `, Redis ${mb(r.afterSignIns.redisMb)}`}`,
      baseline: `RSS ${mb(r.quiet.rssMb)}`,
      goal: `<= ${GOALS.structureEntries.toLocaleString("en")} entries each, RSS +< ${GOALS.rssGrowthMb} MB`,
      met:
        largest(r.afterSignIns) <= GOALS.structureEntries &&
        r.afterSignIns.rssMb - r.quiet.rssMb < GOALS.rssGrowthMb,
    },
  );
  figures.push({
    measure: `${storeName}: fresh-wallet sign-in flood, ${r.floodFresh.requests.toLocaleString("en")} sign-ins, each by a new keypair`,
    value: `${entriesText(r.afterFresh)}, evictable_sessions ${r.afterFresh.entries.evictable_sessions ?? 0}; RSS ${mb(r.afterFresh.rssMb)}${r.afterFresh.redisMb === undefined ? "" : `, Redis ${mb(r.afterFresh.redisMb)}`}`,
    baseline: `RSS ${mb(r.quiet.rssMb)}${r.quiet.redisMb === undefined ? "" : `, Redis ${mb(r.quiet.redisMb)}`}`,
    goal: `sign_in_nonces <= ${GOALS.structureEntries.toLocaleString("en")}, sessions <= ${MAX_CREDITLESS_SESSIONS.toLocaleString("en")} + the 100 wallets' (the cap)`,
    met:
      (r.afterFresh.entries.sign_in_nonces ?? 0) <= GOALS.structureEntries &&
      (r.afterFresh.entries.wallet_sessions ?? 0) <= MAX_CREDITLESS_SESSIONS + 10 * WALLETS,
  });
  notes.push(
    `${storeName}: answers 402 flood ${statusText(r.flood402.statuses)}; signature flood ${statusText(r.floodSignatures.statuses)}; sign-in flood ${statusText(r.floodSignIns.statuses)}; fresh-wallet flood ${statusText(r.floodFresh.statuses)}.`,
  );
  const sites = ceilingFigures(storeName, r, {
    addresses: INFO_ADDRESSES,
    freeAddresses: FREE_ADDRESSES,
    sites: SITES,
    freeAcrossSites: FREE_ACROSS_SITES,
    coldLoadsPerMinute: COLD_LOADS_PER_MINUTE,
    sitesMemoryMb: SITES_MEMORY_MB,
  });
  figures.push(...sites.figures);
  notes.push(...sites.notes);
}

record("strangers", {
  title: "A stranger's flood",
  method: `The real service (memory store, then a real redis-server with AOF off), a local chain behind a JSON-RPC proxy that counts every call. ${ADDRESSES.toLocaleString("en")} IPv6 /64s through X-Forwarded-For, ${CONCURRENCY} requests at a time, ${SECONDS} s per flood: chat 402s (no free questions), random signatures (X-Payment-Authorization on one 402's payment_id with a random transaction hash signed by the sender's fresh key, and POST /api/payment, in turn), then sign-ins of ${WALLETS} wallets from every address, then sign-ins each by a new keypair. The same service hosts ${SITES} sites of about 300 chunks (this repository's docs, ${FREE_PER_SITE} free questions each, indexed before the start), whose floods follow: GET /api/payment/info from ${INFO_ADDRESSES.toLocaleString("en")} more /64s, each on two of the ${SITES + 1} sites; every site's free questions (and one more) asked by one new address, then by ${FREE_ADDRESSES} more, site by site; then for ${SECONDS} s the sites asked in turn, each question from a new address, with SITES_MEMORY_MB=${SITES_MEMORY_MB} so the indexes do not all fit. Entries from /metrics (the default site's store), RSS from /proc, Redis INFO used_memory and DBSIZE (every site), index loads and refusals from /metrics; baseline: the same service after a 50-request warm-up, or just before the flood.`,
  figures,
  notes,
});
