import { beforeAll, describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { encodeBase58 } from "../../core/base58.ts";
import { type AppConfig, type Env, parseConfig } from "../../core/config/config.ts";
import { parsedConfig as ok, configProblems as problems } from "../support/parsed-config.ts";
import { addressOf } from "../support/parsed-tx.ts";

/** The config as JSON (its amounts are bigints: the price of a question, the facilitator's minimum). */
const jsonOf = (config: AppConfig) =>
  JSON.stringify(config, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));

const MINT = addressOf(11);
const fromBase64Url = (text: string | undefined) => Uint8Array.from(Buffer.from(text ?? "", "base64url"));

/** A real Ed25519 keypair as Solana stores it: 32-byte seed then 32-byte public key. */
const solanaKeypair = async () => {
  const pair = (await crypto.subtle.generateKey("Ed25519", true, ["sign"])) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  expect(fromBase64Url(jwk.x)).toEqual(publicKey);
  const secret = Uint8Array.from([...fromBase64Url(jwk.d), ...publicKey]);
  expect(secret.length).toBe(64);
  return { address: encodeBase58(publicKey), secret, secretJson: JSON.stringify([...secret]) };
};
let wallet: Awaited<ReturnType<typeof solanaKeypair>>;
let other: Awaited<ReturnType<typeof solanaKeypair>>;
beforeAll(async () => {
  wallet = await solanaKeypair();
  other = await solanaKeypair();
});

const namesOf = (env: Env) => problems(env).map((problem) => problem.split(":")[0]);
const devnet = (): Env => ({
  CHAIN_NETWORK: "devnet",
  USDC_MINT_ADDRESS: MINT,
  PAYMENT_WALLET_ADDRESS: wallet.address,
});

describe("chain configuration", () => {
  test("devnet with mint and wallet uses the public devnet RPC", () => {
    expect(ok(devnet()).chain).toEqual({
      network: "devnet",
      usdcMint: MINT,
      wallet: wallet.address,
      rpcUrl: "https://api.devnet.solana.com",
      walletSecretKey: undefined,
    });
  });

  test("SOLANA_RPC_URL overrides the default", () => {
    expect(ok({ ...devnet(), SOLANA_RPC_URL: "http://127.0.0.1:8899" }).chain?.rpcUrl).toBe(
      "http://127.0.0.1:8899",
    );
  });

  test("partial chain settings are refused, naming what is missing", () => {
    expect(namesOf({ PAYMENT_WALLET_ADDRESS: wallet.address })).toEqual(["CHAIN_NETWORK"]);
    expect(namesOf({ USDC_MINT_ADDRESS: MINT }).sort()).toEqual(["CHAIN_NETWORK", "PAYMENT_WALLET_ADDRESS"]);
    expect(namesOf({ CHAIN_NETWORK: "devnet" })).toEqual(["PAYMENT_WALLET_ADDRESS"]);
    expect(namesOf({ PAYMENT_WALLET_SECRET_KEY: wallet.secretJson })).toEqual(["PAYMENT_WALLET_SECRET_KEY"]);
    expect(namesOf({ SOLANA_RPC_URL: "http://127.0.0.1:8899" })).toEqual(["SOLANA_RPC_URL"]);
  });

  test("addresses must be base58 of 32 bytes", () => {
    expect(namesOf({ ...devnet(), USDC_MINT_ADDRESS: encodeBase58(new Uint8Array(31).fill(9)) })).toEqual([
      "USDC_MINT_ADDRESS",
    ]);
    expect(namesOf({ ...devnet(), PAYMENT_WALLET_ADDRESS: "0OIl" })).toEqual(["PAYMENT_WALLET_ADDRESS"]);
  });

  test("unknown network refused", () => {
    expect(namesOf({ ...devnet(), CHAIN_NETWORK: "testnet" })).toEqual(["CHAIN_NETWORK"]);
  });

  test("the USDC mint of devnet and mainnet-beta is Circle's unless given; localnet's must be given", () => {
    const { USDC_MINT_ADDRESS: _, ...bare } = devnet();
    expect(ok(bare).chain?.usdcMint).toBe("4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU");
    expect(
      ok({ ...bare, CHAIN_NETWORK: "mainnet-beta", ALLOW_MEMORY_STORE_ON_MAINNET: "true" }).chain?.usdcMint,
    ).toBe("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
    expect(problems({ ...bare, CHAIN_NETWORK: "localnet", SOLANA_RPC_URL: "http://127.0.0.1:8899" })).toEqual(
      ["USDC_MINT_ADDRESS: required with CHAIN_NETWORK=localnet (the local chain's own mint)"],
    );
  });

  test("localnet needs SOLANA_RPC_URL", () => {
    const localnet = { ...devnet(), CHAIN_NETWORK: "localnet" };
    expect(namesOf(localnet)).toEqual(["SOLANA_RPC_URL"]);
    expect(ok({ ...localnet, SOLANA_RPC_URL: "http://127.0.0.1:8899" }).chain?.network).toBe("localnet");
  });

  test("mainnet-beta without REDIS_URL is refused unless ALLOW_MEMORY_STORE_ON_MAINNET=true", () => {
    const mainnet = { ...devnet(), CHAIN_NETWORK: "mainnet-beta" };
    expect(namesOf(mainnet)).toEqual(["REDIS_URL"]);
    expect(namesOf({ ...mainnet, ALLOW_MEMORY_STORE_ON_MAINNET: "false" })).toEqual(["REDIS_URL"]);
    expect(ok({ ...mainnet, ALLOW_MEMORY_STORE_ON_MAINNET: "true" }).allowVolatileStoreOnMainnet).toBe(true);
    const withRedis = ok({ ...mainnet, REDIS_URL: "redis://127.0.0.1:6379" });
    expect(withRedis.chain?.rpcUrl).toBe("https://api.mainnet-beta.solana.com");
    expect(ok(devnet()).redis).toBeUndefined();
  });
});

describe("PAYMENT_WALLET_SECRET_KEY", () => {
  test("64 numbers whose last 32 bytes are the wallet address are accepted and kept redacted", () => {
    const config = ok({ ...devnet(), PAYMENT_WALLET_SECRET_KEY: wallet.secretJson });
    const key = config.chain?.walletSecretKey;
    expect(key && Redacted.value(key)).toEqual(wallet.secret);
    expect(jsonOf(config)).not.toContain(wallet.secretJson.slice(1, 20));
  });

  const badKeys: ReadonlyArray<readonly [string, () => string, string]> = [
    ["another keypair's key", () => other.secretJson, "does not belong"],
    ["63 numbers", () => JSON.stringify([...wallet.secret.slice(1)]), "64 numbers"],
    ["a byte over 255", () => JSON.stringify([...wallet.secret.slice(0, 63), 256]), "64 numbers"],
    ["a fraction", () => JSON.stringify([0.5, ...wallet.secret.slice(1)]), "64 numbers"],
    ["not JSON", () => "my secret words", "64 numbers"],
    ["a JSON object", () => JSON.stringify({ key: [...wallet.secret] }), "64 numbers"],
    ["base58 text", () => encodeBase58(wallet.secret), "64 numbers"],
  ];
  for (const [what, value, why] of badKeys) {
    test(`${what} is refused`, () => {
      const list = problems({ ...devnet(), PAYMENT_WALLET_SECRET_KEY: value() });
      expect(list.length).toBe(1);
      expect(list[0]).toStartWith("PAYMENT_WALLET_SECRET_KEY: ");
      expect(list[0]).toContain(why);
    });
  }
});

describe("secrets never appear in a ConfigError", () => {
  test("bad and good secret values alongside other problems", () => {
    const secrets = {
      LLM_API_KEY: "gsk_s3cr3t_llm_7f3a91",
      VECTOR_API_KEY: "ck-s3cr3t-vector-91b2",
      REDIS_URL: "redis//:hunter2s3cr3t@cache:6379",
      SOLANA_RPC_URL: "rpc.example.com/?api-key=s3cr3trpc42",
    };
    const env: Env = { ...devnet(), ...secrets, PAYMENT_WALLET_SECRET_KEY: other.secretJson, PORT: "x" };
    const result = parseConfig(env);
    if (Result.isSuccess(result)) throw new Error("accepted");
    const texts = [result.failure.message, String(result.failure), JSON.stringify(result.failure.problems)];
    expect(result.failure.problems.map((p) => p.split(":")[0]).sort()).toEqual([
      "PAYMENT_WALLET_SECRET_KEY",
      "PORT",
      "REDIS_URL",
      "SOLANA_RPC_URL",
      "VECTOR_INDEX_NAME",
    ]);
    for (const text of texts) {
      for (const secret of [...Object.values(secrets), "hunter2", "s3cr3t", other.secretJson.slice(1, 12)])
        expect(text).not.toContain(secret);
    }
  });

  test("a valid Redis URL with a password is not echoed by other problems", () => {
    const env: Env = {
      REDIS_URL: "redis://default:hunter2pw@cache:6379",
      PORT: "no",
      ...devnet(),
      CHAIN_NETWORK: "x",
    };
    const result = parseConfig(env);
    if (Result.isSuccess(result)) throw new Error("accepted");
    expect(result.failure.message).not.toContain("hunter2pw");
  });

  test("a valid configuration serialises without its secrets", () => {
    const config = ok({
      ...devnet(),
      CHAIN_NETWORK: "mainnet-beta",
      PAYMENT_WALLET_SECRET_KEY: wallet.secretJson,
      LLM_API_KEY: "gsk_SECRET_llm",
      VECTOR_API_KEY: "ck-SECRET-vector",
      VECTOR_INDEX_NAME: "docs",
      REDIS_URL: "redis://default:hunter2pw@cache:6379",
    });
    const json = jsonOf(config);
    for (const secret of ["gsk_SECRET_llm", "ck-SECRET-vector", "hunter2pw", wallet.secretJson.slice(1, 12)])
      expect(json).not.toContain(secret);
  });
});
