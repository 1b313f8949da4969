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
 * - fresh wallets: the same, each sign-in by a keypair never seen (they cost a stranger nothing).
 * After each flood: RPC calls made, the bounded structures' entries (/metrics), the service's
 * RSS, Redis used_memory, beside the quiet baseline read after a warm-up, held to the goals below.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSigner, getBase58Decoder, type KeyPairSigner } from "@solana/kit";
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

const SECONDS = Number(process.env.BENCH_STRANGERS_SECONDS ?? 60);
const ADDRESSES = Number(process.env.BENCH_STRANGERS_ADDRESSES ?? 10_000);
const CONCURRENCY = 16;
const WALLETS = 100;
const METRICS_TOKEN = "strangers-bench-metrics-token-0123";
/** The goals: each bounded structure within its cap, and the memory a flood adds small. */
const GOALS = { structureEntries: 20_000, redisGrowthMb: 20, rssGrowthMb: 64 } as const;
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
}

const run = async (storeName: "memory" | "Redis") => {
  const chain = await startTestChain();
  const rpc = await startCountingRpcProxy(chain.url);
  const redis = storeName === "Redis" ? await startRedisServer({ args: ["--appendonly", "no"] }) : undefined;
  const raw = redis === undefined ? undefined : rawClient(redis.url);
  const work = mkdtempSync(join(tmpdir(), "strangers-bench-"));
  const service = await startService({
    cwd: work,
    outputTail: BENCH_OUTPUT_TAIL,
    env: {
      ...chainEnv(chain),
      SOLANA_RPC_URL: rpc.url,
      TRUST_PROXY: "loopback",
      RATE_LIMIT_FREE_QUERIES: "0",
      METRICS_TOKEN,
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
    return {
      rpcCalls: rpc.total(),
      entries,
      rssMb: rssMb(service.pid),
      redisMb: usedMemory === undefined ? undefined : Number(usedMemory) / 2 ** 20,
    };
  };
  /** `send(n)` for the n-th request, CONCURRENCY at a time, for SECONDS; statuses counted. */
  const flood = async (send: (n: number) => Promise<Response>) => {
    const statuses: Record<number, number> = {};
    const until = performance.now() + SECONDS * 1000;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) {
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
}

record("strangers", {
  title: "A stranger's flood",
  method: `The real service (memory store, then a real redis-server with AOF off), a local chain behind a JSON-RPC proxy that counts every call. ${ADDRESSES.toLocaleString("en")} IPv6 /64s through X-Forwarded-For, ${CONCURRENCY} requests at a time, ${SECONDS} s per flood: chat 402s (no free questions), random signatures (X-Payment-Authorization on one 402's payment_id with a random transaction hash signed by the sender's fresh key, and POST /api/payment, in turn), then sign-ins of ${WALLETS} wallets from every address, then sign-ins each by a new keypair. Entries from /metrics, RSS from /proc, Redis INFO used_memory; baseline: the same service after a 50-request warm-up.`,
  figures,
  notes,
});
