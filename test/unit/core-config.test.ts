import { describe, expect, test } from "bun:test";
import { Redacted, Result } from "effect";
import { type AppConfig, DEFAULT_INDEX_PATH, type Env, parseConfig } from "../../core/config.ts";
import { DEFAULT_REDACTION } from "../../core/insights/redaction.ts";

const ok = (env: Env): AppConfig => {
  const result = parseConfig(env);
  if (Result.isFailure(result)) throw new Error(result.failure.message);
  return result.success;
};
const problems = (env: Env): ReadonlyArray<string> => {
  const result = parseConfig(env);
  if (Result.isSuccess(result)) throw new Error("expected a ConfigError");
  expect(result.failure._tag).toBe("ConfigError");
  return result.failure.problems;
};
const namesOf = (list: ReadonlyArray<string>) => list.map((problem) => problem.split(":")[0]);

describe("parseConfig defaults", () => {
  test("an empty environment is a valid demo configuration", () => {
    expect(ok({})).toEqual({
      port: 3000,
      freeQueries: 3,
      paidDailyCap: 1000,
      allowedOrigins: [],
      trustProxy: { kind: "none" },
      protectionRps: 100,
      redisUrl: undefined,
      allowVolatileStoreOnMainnet: false,
      chain: undefined,
      memoRequired: false,
      llm: undefined,
      vector: { kind: "local", indexPath: DEFAULT_INDEX_PATH },
      embeddingModel: undefined,
      insights: {
        adminToken: undefined,
        salt: undefined,
        retentionMs: 30 * 86_400_000,
        maxEvents: 100_000,
        redaction: DEFAULT_REDACTION,
      },
    });
  });

  test("blank values count as unset", () => {
    expect(ok({ PORT: "  ", LLM_API_KEY: "", ALLOWED_ORIGINS: " " }).port).toBe(3000);
  });

  test("values are read and trimmed", () => {
    const config = ok({
      PORT: " 8080 ",
      RATE_LIMIT_FREE_QUERIES: "0",
      PAID_DAILY_CAP: "50",
      PROTECTION_RATE_LIMIT: "7",
      PAYMENT_MEMO_REQUIRED: "TRUE",
      LLM_API_KEY: "gsk_abc",
      LLM_MODEL: "llama-3.3-70b-versatile",
      LLM_BASE_URL: "http://127.0.0.1:9999/v1",
      CHROMA_URL: "http://127.0.0.1:8000",
      VECTOR_INDEX_NAME: "docs",
      EMBEDDING_MODEL: "Xenova/all-MiniLM-L6-v2",
      REDIS_URL: "redis://127.0.0.1:6379",
    });
    expect([config.port, config.freeQueries, config.paidDailyCap, config.protectionRps]).toEqual([
      8080, 0, 50, 7,
    ]);
    expect(config.memoRequired).toBe(true);
    expect(config.llm?.model).toBe("llama-3.3-70b-versatile");
    expect(config.llm?.baseUrl).toBe("http://127.0.0.1:9999/v1");
    expect(config.llm && Redacted.value(config.llm.apiKey)).toBe("gsk_abc");
    expect(config.vector).toEqual({
      kind: "chroma",
      url: "http://127.0.0.1:8000",
      apiKey: undefined,
      collection: "docs",
    });
    expect(config.redisUrl && Redacted.value(config.redisUrl)).toBe("redis://127.0.0.1:6379");
    expect(config.embeddingModel).toBe("Xenova/all-MiniLM-L6-v2");
  });

  test("a vector key without an index name is refused", () => {
    expect(namesOf(problems({ VECTOR_API_KEY: "vk" }))).toEqual(["VECTOR_INDEX_NAME"]);
  });
});

describe("parseConfig reports every bad variable at once", () => {
  const env: Env = {
    PORT: "http",
    RATE_LIMIT_FREE_QUERIES: "-3",
    PAID_DAILY_CAP: "0",
    PROTECTION_RATE_LIMIT: "1.5",
    ALLOWED_ORIGINS: "*",
    TRUST_PROXY: "proxy.internal",
    ALLOW_MEMORY_STORE_ON_MAINNET: "maybe",
    PAYMENT_MEMO_REQUIRED: "yes",
    CHROMA_URL: "not a url",
    CHAIN_NETWORK: "testnet",
    USDC_MINT_ADDRESS: "0xdeadbeef",
    PAYMENT_WALLET_ADDRESS: "wallet",
  };
  const expected = [
    "PORT",
    "RATE_LIMIT_FREE_QUERIES",
    "PAID_DAILY_CAP",
    "PROTECTION_RATE_LIMIT",
    "ALLOWED_ORIGINS",
    "TRUST_PROXY",
    "ALLOW_MEMORY_STORE_ON_MAINNET",
    "PAYMENT_MEMO_REQUIRED",
    "CHROMA_URL",
    "VECTOR_INDEX_NAME",
    "CHAIN_NETWORK",
    "USDC_MINT_ADDRESS",
    "PAYMENT_WALLET_ADDRESS",
  ];

  test("one ConfigError names all of them", () => {
    expect(namesOf(problems(env)).sort()).toEqual([...expected].sort());
  });

  test("the error message lists each problem on its own line", () => {
    const result = parseConfig(env);
    if (Result.isSuccess(result)) throw new Error("accepted");
    const lines = result.failure.message.split("\n");
    expect(lines[0]).toBe("Invalid configuration:");
    expect(lines.length).toBe(expected.length + 1);
    for (const name of expected) expect(result.failure.message).toContain(`  - ${name}: `);
  });

  test("integer bounds", () => {
    expect(namesOf(problems({ PORT: "65536" }))).toEqual(["PORT"]);
    expect(ok({ PORT: "65535" }).port).toBe(65535);
    expect(ok({ PORT: "0" }).port).toBe(0);
    expect(namesOf(problems({ PORT: "1e3" }))).toEqual(["PORT"]);
    expect(namesOf(problems({ PORT: "0x10" }))).toEqual(["PORT"]);
  });
});

describe("ALLOWED_ORIGINS", () => {
  test("a comma list of origins; a trailing slash is dropped", () => {
    expect(
      ok({ ALLOWED_ORIGINS: "https://docs.example.com, http://localhost:5173/" }).allowedOrigins,
    ).toEqual(["https://docs.example.com", "http://localhost:5173"]);
  });
  const bad = [
    "*",
    "https://*.example.com",
    "https://docs.example.com/path",
    "docs.example.com",
    "https://a.com?x=1",
    "null",
  ];
  for (const origin of bad) {
    test(`"${origin}" is refused`, () => {
      const list = problems({ ALLOWED_ORIGINS: `https://ok.example.com,${origin}` });
      expect(list.length).toBe(1);
      expect(list[0]).toStartWith("ALLOWED_ORIGINS: ");
      expect(list[0]).toContain(`"${origin}"`);
    });
  }
});

describe("TRUST_PROXY in the config", () => {
  test("parsed into the config, bad values reported", () => {
    expect(ok({ TRUST_PROXY: "2" }).trustProxy).toEqual({ kind: "hops", hops: 2 });
    expect(problems({ TRUST_PROXY: "0" })[0]).toStartWith("TRUST_PROXY: ");
  });
});

describe("the insights variables", () => {
  test("ADMIN_TOKEN and INSIGHTS_SALT are kept redacted; retention, cap and pattern parsed", () => {
    const { insights } = ok({
      ADMIN_TOKEN: "an-admin-token-of-some-length",
      INSIGHTS_SALT: "a-salt-of-some-length",
      INSIGHTS_RETENTION_DAYS: "7",
      INSIGHTS_MAX_EVENTS: "5000",
      INSIGHTS_REDACT_PATTERN: String.raw`ORD-\d+`,
    });
    expect(Redacted.value(insights.adminToken!)).toBe("an-admin-token-of-some-length");
    expect(String(insights.adminToken)).not.toContain("admin-token");
    expect(Redacted.value(insights.salt!)).toBe("a-salt-of-some-length");
    expect(insights.retentionMs).toBe(7 * 86_400_000);
    expect(insights.maxEvents).toBe(5000);
    expect(insights.redaction.test("ord-42")).toBe(true);
  });

  test.each([
    ["ADMIN_TOKEN", "short-token"],
    ["INSIGHTS_SALT", "tiny"],
    ["INSIGHTS_REDACT_PATTERN", "(unclosed"],
    ["INSIGHTS_RETENTION_DAYS", "0"],
    ["INSIGHTS_MAX_EVENTS", "10"],
  ])("%s=%p is refused (secrets never shown)", (name, value) => {
    const list = problems({ [name]: value });
    expect(namesOf(list)).toEqual([name]);
    if (name === "ADMIN_TOKEN" || name === "INSIGHTS_SALT") expect(list[0]).not.toContain(value);
  });
});
