/**
 * Round trips per request on a real, dedicated redis-server, counted with MONITOR: every
 * command a client sends is one line, and a command a script runs inside Redis is marked "lua"
 * and is not a round trip. The figures are docs/performance.md's table ("Round trips per
 * route"); a change that adds a round trip to a route fails here and updates the table.
 * Counting, unlike timing, does not depend on how loaded the machine is.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import type { Redis } from "ioredis";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { connect } from "../../adapters/store-redis/redis-client.ts";
import { countRoundTrips } from "../../adapters/store-redis/round-trips.ts";
import { walletAccount } from "../../core/payments/wallet-credits.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { hashSessionToken, newSessionToken, SESSION_HEADER } from "../../src/sign-in/session-token.ts";
import {
  type RedisServer,
  rawClient,
  redisServerAvailable,
  startRedisServer,
} from "../support/redis-server.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
const WALLET = "8a5uiSArRfLkoGX8Myr44L15hddBADyHvqZdFzeM98Ng";
const DAY = 86_400_000;
/** The session test's wallet: the payer-link test credits WALLET on the same prefix. */
const SIGNED_IN = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
/** The wallet behind the declared-keys test. */
const KEYED = "GokivDYuQXPZCWRkwMhdH2h91KpDQXBEmpgBgs55bnpH";
/** The wallet behind the chat's payer-link test. */
const LINKED = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";

describe.skipIf(!redisServerAvailable())("round trips per route on Redis", () => {
  let redis: RedisServer;
  let monitor: Redis;
  let marker: Redis;
  const seen: string[] = [];
  /** Every line MONITOR shows, a script's own commands marked. */
  const lines: Array<{ readonly args: string[]; readonly lua: boolean }> = [];
  let marks = 0;
  const build = testApps();

  beforeAll(async () => {
    redis = await startRedisServer();
    marker = rawClient(redis.url);
    monitor = await rawClient(redis.url).monitor();
    monitor.on("monitor", (_time: string, args: string[], source: string) => {
      if (!source.startsWith("lua")) seen.push(args.join(" "));
      lines.push({ args, lua: source.startsWith("lua") });
    });
  });
  afterAll(async () => {
    monitor.disconnect();
    marker.disconnect();
    await redis.stop();
  });

  /**
   * The commands clients sent while `act` ran. A marker sent after it reaches MONITOR after
   * every command sent before it (Redis runs commands in order), so nothing is missed.
   */
  const commandsOf = async (act: () => Promise<unknown>): Promise<string[]> => {
    const mark = `round-trip-mark-${marks++}`;
    seen.length = 0;
    await act();
    await marker.echo(mark);
    while (!seen.some((line) => line.includes(mark))) await Bun.sleep(1);
    return seen.filter((line) => !line.includes(mark)).map(named);
  };

  const app = async (): Promise<TestApp> => {
    const t = build({
      freeQueries: 1,
      store: RedisStore.layer({ url: redis.url, limits, keyPrefix: "rt:" }),
    });
    // The first request of a fresh connection loads each script (NOSCRIPT, then EVAL) and the
    // runtime; the table counts a warm instance.
    await commandsOf(async () => {
      await t.call("/api/status", {}, "192.0.2.250");
      await t.chat("warm-up", "192.0.2.250");
      await t.chat("warm-up", "192.0.2.250");
      await t.call("/api/payment/info", {}, "192.0.2.250");
    });
    return t;
  };

  test("GET /api/status: one script call, with or without a payer link, and the free questions left across sites", async () => {
    const t = await app();
    expect(await commandsOf(() => t.call("/api/status", {}, "192.0.2.1"))).toEqual(STATUS);
    // A credit bought through 192.0.2.2: three paid questions it may spend through its link.
    await commandsOf(() =>
      t.runtime.runPromise(
        Effect.gen(function* () {
          yield* (yield* PaymentStore).claim("sig-rt-1", walletAccount(WALLET), 3, Date.now());
          yield* (yield* WalletSessions).link("192.0.2.2", WALLET, 3, Date.now() + DAY, Date.now());
        }),
      ),
    );
    let body: unknown;
    const status = () =>
      commandsOf(async () => {
        body = await (await t.call("/api/status", {}, "192.0.2.2")).json();
      });
    // The script is told the wallet last seen linked (no key is built in Lua): an instance's
    // first read of the identity learns the link's wallet and asks again with its keys.
    const [first, second] = [await status(), await status()];
    expect({ first, second }).toEqual({ first: ["evalsha quota", ...STATUS], second: STATUS });
    expect(body).toMatchObject({ remaining: 4, free: 1, paid: 3, requiresPayment: false });
  });

  test("GET /api/status with a session: the session's script, then the identity's and the wallet's quota", async () => {
    const t = await app();
    const token = newSessionToken();
    await commandsOf(async () => {
      const hash = await hashSessionToken(token);
      await t.runtime.runPromise(
        Effect.gen(function* () {
          yield* (yield* PaymentStore).claim("sig-rt-2", walletAccount(SIGNED_IN), 2, Date.now());
          yield* (yield* WalletSessions).open(hash, SIGNED_IN, Date.now() + DAY, Date.now());
        }),
      );
      // The session script is loaded by a first read (a warm instance has it).
      await t.call("/api/status", { headers: { [SESSION_HEADER]: token } }, "192.0.2.6");
    });
    let body: unknown;
    const commands = await commandsOf(async () => {
      body = await (
        await t.call("/api/status", { headers: { [SESSION_HEADER]: token } }, "192.0.2.6")
      ).json();
    });
    // Through the router like every route (no read of its own beside WalletSessions and the quotas).
    expect(commands).toEqual(["evalsha session", "hgetall quota", "hgetall quota"]);
    expect(body).toMatchObject({ remaining: 3, free: 1, paid: 2, wallet: SIGNED_IN });
  });

  test("POST /api/chat: a free answer, and a 402 once the free question is spent", async () => {
    const t = await app();
    const answered = await commandsOf(() => t.chat("what is x402?", "192.0.2.3"));
    const refused = await commandsOf(() => t.chat("and again?", "192.0.2.3"));
    expect({ answered, refused }).toEqual({ answered: ANSWERED, refused: REFUSED });
  });

  test("POST /api/chat through a payer link: the hold finds the wallet; only an instance's first hold of the identity asks twice", async () => {
    const t = await app();
    await commandsOf(() =>
      t.runtime.runPromise(
        Effect.gen(function* () {
          yield* (yield* PaymentStore).claim("sig-rt-3", walletAccount(LINKED), 3, Date.now());
          yield* (yield* WalletSessions).link("192.0.2.7", LINKED, 3, Date.now() + DAY, Date.now());
        }),
      ),
    );
    // The wallet's credits first: the first hold learns the link's wallet and asks again with its keys.
    const first = await commandsOf(() => t.chat("what is x402?", "192.0.2.7"));
    const second = await commandsOf(() => t.chat("and x402 v2?", "192.0.2.7"));
    expect({ first: first.slice(0, 2), second }).toEqual({
      first: ["evalsha quota", "evalsha quota"],
      second: THROUGH_LINK,
    });
    const status = await (await t.call("/api/status", {}, "192.0.2.7")).json();
    expect(status).toMatchObject({ remaining: 2, free: 1, paid: 1 });
  });

  test("store_round_trips_total counts what MONITOR sees: one per command sent, none for a script's inner commands", async () => {
    const counted: string[] = [];
    const t = build({
      freeQueries: 1,
      store: RedisStore.layer({
        url: redis.url,
        limits,
        keyPrefix: "rt-count:",
        onRoundTrip: (command) => counted.push(command),
      }),
    });
    await commandsOf(() => t.call("/api/status", {}, "192.0.2.5"));
    counted.length = 0;
    const seenByRedis = await commandsOf(() => t.chat("what is x402?", "192.0.2.5"));
    expect(counted).toEqual(seenByRedis.map((line) => line.split(" ")[0] ?? ""));
    expect(counted).toEqual(["evalsha", "evalsha", "evalsha", "evalsha", "set"]);
  });

  test("on the store's connection, auto-pipelined commands count one each and a MULTI block once", async () => {
    const counted: string[] = [];
    const client = await Effect.runPromise(connect({ url: redis.url }));
    try {
      countRoundTrips(client, (command) => counted.push(command));
      // Sent in one turn of the event loop: auto-pipelining writes them together.
      const seenByRedis = await commandsOf(() =>
        Promise.all([
          client.get("rt-pipe:a"),
          client.get("rt-pipe:b"),
          client.multi().set("rt-pipe:c", "1").get("rt-pipe:c").exec(),
        ]),
      );
      // The MULTI block goes out at once, the GETs one turn later: compared in any order.
      expect(seenByRedis.map((line) => line.split(" ")[0]).sort()).toEqual([
        "exec",
        "get",
        "get",
        "get",
        "multi",
        "set",
      ]);
      expect(counted.sort()).toEqual(["get", "get", "multi"]);
    } finally {
      client.disconnect();
    }
  });

  /**
   * The keys the scripts run while `act` ran touched without being passed them: each script's
   * commands follow its EVALSHA line in MONITOR's stream, and their first argument is the key.
   */
  const undeclaredKeysOf = async (act: () => Promise<unknown>): Promise<string[]> => {
    lines.length = 0;
    await commandsOf(act);
    const undeclared: string[] = [];
    let declared: string[] = [];
    for (const { args, lua } of lines) {
      const [command = "", ...rest] = args;
      if (!lua) {
        const scripted = /^eval(sha)?$/i.test(command);
        declared = scripted ? rest.slice(2, 2 + Number(rest[1])) : [];
      } else if (rest[0] !== undefined && !declared.includes(rest[0]))
        undeclared.push(`${command} ${rest[0]}`);
    }
    return undeclared;
  };

  test("every key a chat's or a session's script touches is passed to it as a key", async () => {
    const t = await app();
    const token = newSessionToken();
    const hash = await hashSessionToken(token);
    const session = { headers: { [SESSION_HEADER]: token } };
    // A fresh instance knows neither the session's wallet nor the link's: its first reads learn them.
    const fresh = await app();
    const touched = await undeclaredKeysOf(async () => {
      await t.runtime.runPromise(
        Effect.gen(function* () {
          const now = Date.now();
          yield* (yield* PaymentStore).claim("sig-rt-4", walletAccount(KEYED), 2, now);
          yield* (yield* WalletSessions).link("192.0.2.8", KEYED, 2, now + DAY, now);
          yield* (yield* WalletSessions).open(hash, KEYED, now + DAY, now);
        }),
      );
      for (const app of [fresh, t]) {
        await app.call("/api/status", session, "192.0.2.8");
        await app.runtime.runPromise(Effect.flatMap(WalletSessions, (s) => s.find(hash, Date.now())));
        await app.chat("what is x402?", "192.0.2.8");
      }
      // The wallet's two, then the identity's free one.
      await t.chat("and again?", "192.0.2.8");
    });
    expect(touched).toEqual([]);
  });

  test("GET /api/payment/info: no store command (the memo reference is sealed)", async () => {
    const t = await app();
    expect(await commandsOf(() => t.call("/api/payment/info", {}, "192.0.2.4"))).toEqual([]);
  });
});

/** A command as "<command> <kind of its first key>": "evalsha quota", "hmget link". */
const named = (line: string): string => {
  const [command = "", ...args] = line.split(" ");
  const key = command.toLowerCase() === "evalsha" ? args[2] : args[0];
  return `${command.toLowerCase()} ${key?.split(":")[1] ?? ""}`;
};

/**
 * A status read: the quota (the payer link read inside it). A service of one site reads no
 * count across sites: its sites together give no more free questions than that cap, so it
 * cannot bind (several sites read it: test/http/sites.free-across-sites.test.ts).
 */
const STATUS = ["evalsha quota"];
/**
 * A free answer: the hold (the payer link read inside it), the declines' check with the free
 * question's count across sites (one script), that count kept before the commit, the commit, the
 * answer's id (for feedback).
 */
const ANSWERED = ["evalsha quota", "evalsha ceiling", "evalsha ceiling", "evalsha quota", "set answer"];
/**
 * An answer paid by the wallet through the identity's payer link: the hold (the link read inside
 * it), the declines' check, the settle through the link (it answers the wallet's view), the
 * identity's view, the answer's id.
 */
const THROUGH_LINK = ["evalsha quota", "evalsha ceiling", "evalsha quota", "hgetall quota", "set answer"];
/**
 * A 402: the refused hold (the payer link read inside it), then the declines' check (a client past
 * them is told so, not offered a payment); the memo reference it names is sealed.
 */
const REFUSED = ["evalsha quota", "evalsha ceiling"];
