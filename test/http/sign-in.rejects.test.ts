/**
 * Signing in with a wallet (sign-in-with-x, SIWS), on the memory store and on a real Redis shared
 * by two instances: a good proof opens a session; a replayed nonce (on the same or the other
 * instance), an expired message, one issued in the future or too long ago, another domain or URI,
 * another key's signature are refused with their codes; a signed-out or revoked session is
 * refused; attempts are rate-limited. Our SIWS text is the reference implementation's.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { generateKeyPairSigner } from "@solana/kit";
import { formatSIWSMessage } from "@x402/extensions/sign-in-with-x";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { signInMessage } from "../../core/sign-in/siws-text.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { challengeOf, proofFor, signInWith } from "../support/sign-in-client.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";

const build = testApps(afterAll);
const MINUTE = 60_000;

/** The checks every pair of instances must pass: `a` issues, `b` is the other instance (or `a`). */
const rejections = (pair: () => Promise<readonly [TestApp, TestApp]>) => {
  test("a good proof signs in: a session whose token spends nothing it should not", async () => {
    const [a] = await pair();
    const wallet = await generateKeyPairSigner();
    const res = await signInWith(a, await proofFor(wallet, await challengeOf(a)));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, wallet: wallet.address, rateLimit: { paid: 0 } });
    expect(body.session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const status = await a.call("/api/status", { headers: { "X-Wallet-Session": body.session.token } });
    expect(await status.json()).toMatchObject({ wallet: wallet.address, paid: 0 });
    // The token never reaches a log line.
    expect(JSON.stringify(a.lines)).not.toContain(body.session.token);
  });

  test("a nonce works once, on either instance", async () => {
    const [a, b] = await pair();
    const wallet = await generateKeyPairSigner();
    const proof = await proofFor(wallet, await challengeOf(a));
    expect((await signInWith(a, proof)).status).toBe(200);
    for (const instance of [a, b]) {
      const replayed = await signInWith(instance, proof);
      expect(replayed.status).toBe(401);
      expect((await replayed.json()).code).toBe("SIGN_IN_NONCE_USED");
    }
    // A nonce the service never issued is refused the same way.
    const invented = await proofFor(wallet, await challengeOf(b), {
      nonce: "0123456789abcdef0123456789abcdef",
    });
    expect((await (await signInWith(b, invented)).json()).code).toBe("SIGN_IN_NONCE_USED");
  });

  test("expired, future, too old, another domain or URI, another key: refused, and the nonce stays usable", async () => {
    const [a] = await pair();
    const wallet = await generateKeyPairSigner();
    const thief = await generateKeyPairSigner();
    const challenge = await challengeOf(a);
    const now = Date.now();
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
      ["expired", { expirationTime: new Date(now - 1000).toISOString() }, "SIGN_IN_EXPIRED"],
      ["future", { issuedAt: new Date(now + MINUTE).toISOString() }, "SIGN_IN_ISSUED_IN_FUTURE"],
      ["too old", { issuedAt: new Date(now - 10 * MINUTE).toISOString() }, "SIGN_IN_TOO_OLD"],
      ["other domain", { domain: "evil.example" }, "SIGN_IN_WRONG_DOMAIN"],
      ["other uri", { uri: "https://evil.example/api/session" }, "SIGN_IN_WRONG_URI"],
      ["other chain", { chainId: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" }, "SIGN_IN_WRONG_CHAIN"],
    ];
    for (const [label, changes, code] of cases) {
      const res = await signInWith(a, await proofFor(wallet, challenge, changes));
      expect({ label, status: res.status, code: (await res.json()).code }).toEqual({
        label,
        status: 401,
        code,
      });
    }
    // Signed by another key than the address it names.
    const forged = await signInWith(a, await proofFor(wallet, challenge, {}, thief));
    expect((await forged.json()).code).toBe("SIGN_IN_BAD_SIGNATURE");
    // A field changed after signing: the text no longer matches the signature.
    const tampered = { ...(await proofFor(wallet, challenge)), statement: "Something else" };
    expect((await (await signInWith(a, tampered)).json()).code).toBe("SIGN_IN_BAD_SIGNATURE");
    // None of them used the nonce up: the real wallet's proof still signs in.
    expect((await signInWith(a, await proofFor(wallet, challenge))).status).toBe(200);
  });

  test("signing out revokes the session; signing in again with signOutOthers revokes every other", async () => {
    const [a, b] = await pair();
    const wallet = await generateKeyPairSigner();
    const open = async (t: TestApp, signOutOthers?: boolean) =>
      (
        await (
          await signInWith(t, await proofFor(wallet, await challengeOf(t)), undefined, signOutOthers)
        ).json()
      ).session.token as string;
    const first = await open(a);
    const second = await open(b);
    const statusWith = async (t: TestApp, token: string) =>
      t.call("/api/status", { headers: { "X-Wallet-Session": token } });
    expect((await statusWith(b, first)).status).toBe(200);
    await a.call("/api/session/sign-out", { method: "POST", headers: { "X-Wallet-Session": first } });
    const signedOut = await statusWith(b, first);
    expect(signedOut.status).toBe(401);
    expect((await signedOut.json()).code).toBe("SESSION_REVOKED");
    // A stolen token stops working when the owner signs in again and signs out the others.
    const mine = await open(a, true);
    expect((await (await statusWith(b, second)).json()).code).toBe("SESSION_REVOKED");
    expect((await statusWith(b, mine)).status).toBe(200);
    // A token we never issued.
    const unknown = await statusWith(a, "A".repeat(43));
    expect((await unknown.json()).code).toBe("SESSION_UNKNOWN");
  });
};

describe("signing in on the memory store", () => {
  rejections(async () => {
    const t = build();
    return [t, t] as const;
  });

  test("sign-in attempts are rate-limited per client", async () => {
    const t = build();
    const codes: number[] = [];
    for (let i = 0; i < 25; i++)
      codes.push((await t.call("/api/session/challenge", {}, "198.51.100.77")).status);
    expect(codes.filter((code) => code === 200)).toHaveLength(20);
    const limited = await t.call("/api/session/challenge", {}, "198.51.100.77");
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe("TOO_MANY_SIGN_IN_ATTEMPTS");
    expect((await t.call("/api/session/challenge", {}, "198.51.100.78")).status).toBe(200);
  });

  test("our SIWS text is the text of the reference implementation (@x402/extensions)", async () => {
    const wallet = await generateKeyPairSigner();
    const challenge = await challengeOf(build());
    const fields = {
      ...challenge.info,
      chainId: challenge.supportedChains[0]!.chainId,
      type: "ed25519" as const,
    };
    expect(signInMessage(fields as never, wallet.address)).toBe(
      formatSIWSMessage(fields as never, wallet.address),
    );
  });
});

describe.skipIf(!redisServerAvailable())("signing in on one Redis shared by two instances", () => {
  const context = useRedisServer();
  let prefix = 0;
  rejections(async () => {
    const keyPrefix = `sign-in-${++prefix}:`;
    const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
    const options = (): TestAppOptions => ({
      freeQueries: 1,
      store: RedisStore.layer({ url: context.redis.url, limits, keyPrefix }),
    });
    return [build(options()), build(options())] as const;
  });
});
