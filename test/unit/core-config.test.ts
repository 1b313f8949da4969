import { describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { encodeBase58 } from "../../core/base58.ts";
import { DEFAULT_CEILING_LIMITS } from "../../core/ceilings/ceilings.ts";
import { DEFAULT_INDEX_PATH, type Env, parseConfig } from "../../core/config/config.ts";
import { DEFAULT_REDACTION } from "../../core/insights/redaction.ts";
import { configFailure, parsedConfig as ok } from "../support/parsed-config.ts";

const problems = (env: Env): ReadonlyArray<string> => {
  const failure = configFailure(env);
  expect(failure._tag).toBe("ConfigError");
  return failure.problems;
};
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const namesOf = (list: ReadonlyArray<string>) => list.map((problem) => problem.split(":")[0]);

describe("parseConfig defaults", () => {
  test("an empty environment is a valid demo configuration", () => {
    expect(ok({})).toEqual({
      host: "127.0.0.1",
      port: 3000,
      freeQueries: 3,
      allowedOrigins: [],
      trustProxy: { kind: "none" },
      redis: undefined,
      redisWaitReplicas: 0,
      redisWaitTimeoutMs: 1000,
      allowVolatileStoreOnMainnet: false,
      chain: undefined,
      memoRequired: false,
      llm: undefined,
      vector: { kind: "local", indexPath: DEFAULT_INDEX_PATH },
      embeddingModel: undefined,
      docsLanguage: undefined,
      insights: {
        adminToken: undefined,
        salt: undefined,
        retentionMs: 30 * 86_400_000,
        redaction: DEFAULT_REDACTION,
      },
      x402: {
        feePayerSecretKey: undefined,
        facilitatorToken: undefined,
        maxSponsorFeeLamports: 15_000,
        minSponsorBalanceLamports: 5_000_000,
        facilitatorPayTo: [],
        facilitatorMinUnits: undefined,
        paymentIdRequired: false,
      },
      surface: {
        publicOrigin: undefined,
        metricsToken: undefined,
        bodyDeadlineMs: 5000,
        allowedHosts: [],
        idleTimeoutSeconds: 10,
      },
      x402Agents: {
        receiptSigningKey: undefined,
        service: {
          serviceName: "Docs assistant",
          tags: ["docs", "search", "answers", "mcp"],
          iconUrl: undefined,
        },
      },
      mcpToolPrices: { search_docs: 0, read_page: 0, ask_docs: 1 },
      unitsPerQuery: 1_000n,
      docsSite: {
        url: undefined,
        syncEveryMs: 6 * 3_600_000,
        collection: undefined,
        allowPrivate: false,
        concurrency: 4,
        delayMs: 250,
        maxPageBytes: 5 * 1024 * 1024,
      },
      sitesFile: undefined,
      ceilings: DEFAULT_CEILING_LIMITS,
    });
  });

  test("the docs site: DOCS_URL, a sync interval in s/m/h/d and the crawler's bounds, each checked", () => {
    const config = ok({
      DOCS_URL: "https://docs.example.com/guide/",
      DOCS_SYNC_EVERY: "15m",
      DOCS_ALLOW_PRIVATE: "true",
      DOCS_MAX_PAGES: "200",
    });
    expect(config.docsSite).toMatchObject({
      url: "https://docs.example.com/guide/",
      syncEveryMs: 900_000,
      allowPrivate: true,
    });
    expect(config.ceilings["docs-pages"]).toBe(200);
    expect(ok({ DOCS_URL: "https://d.example.com", DOCS_SYNC_EVERY: "1d" }).docsSite.syncEveryMs).toBe(
      86_400_000,
    );
    expect(namesOf(problems({ DOCS_URL: "ftp://docs.example.com", DOCS_SYNC_EVERY: "6 hours" }))).toEqual([
      "DOCS_URL",
      "DOCS_SYNC_EVERY",
    ]);
    expect(problems({ DOCS_SYNC_EVERY: "6h" })).toEqual([
      "DOCS_SYNC_EVERY: needs DOCS_URL (the site to sync)",
    ]);
  });

  test("the public surface: an origin, a metrics token, deadlines and budgets, each checked", () => {
    const config = ok({
      PUBLIC_ORIGIN: "https://chat.example.com/",
      METRICS_TOKEN: "metrics-token-0123456789",
      BODY_DEADLINE_MS: "2500",
      MAX_IN_FLIGHT_PER_CLIENT: "8",
      RPC_RELAY_PER_CLIENT_PER_MINUTE: "30",
      RPC_RELAY_PER_MINUTE: "600",
      CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE: "10",
      CHAIN_LOOKUPS_PER_MINUTE: "200",
      ALLOWED_HOSTS: "App, 10.0.0.5, [0:0::1], ::ffff:10.0.0.1 ,",
      IDLE_TIMEOUT_SECONDS: "30",
      MAX_CREDITLESS_SESSIONS: "1000",
      CREDITLESS_SIGN_INS_PER_MINUTE: "60",
    });
    expect({ ...config.surface, metricsToken: undefined }).toEqual({
      publicOrigin: "https://chat.example.com",
      metricsToken: undefined,
      bodyDeadlineMs: 2500,
      allowedHosts: ["app", "10.0.0.5", "[::1]", "[::ffff:a00:1]"],
      idleTimeoutSeconds: 30,
    });
    // What a client may cost is the table of ceilings' (core/ceilings/ceilings.ts), read with the rest.
    expect(config.ceilings).toMatchObject({
      "in-flight-per-client": 8,
      "rpc-relay-per-client": 30,
      "rpc-relay": 600,
      "chain-lookups-per-client": 10,
      "chain-lookups": 200,
      "creditless-sessions": 1000,
      "creditless-sign-ins": 60,
    });
    expect(
      config.surface.metricsToken === undefined ? undefined : Redacted.value(config.surface.metricsToken),
    ).toBe("metrics-token-0123456789");
    const refused = problems({
      PUBLIC_ORIGIN: "https://chat.example.com/path",
      METRICS_TOKEN: "short-secret",
      BODY_DEADLINE_MS: "0",
      MAX_IN_FLIGHT_PER_CLIENT: "many",
      ALLOWED_HOSTS: "chat.example.com:8080, *.example.com",
      IDLE_TIMEOUT_SECONDS: "256",
      MAX_CREDITLESS_SESSIONS: "0",
      CREDITLESS_SIGN_INS_PER_MINUTE: "none",
    });
    // In the order of the settings' Schema, the ceilings' last.
    expect(namesOf(refused)).toEqual([
      "METRICS_TOKEN",
      "PUBLIC_ORIGIN",
      "BODY_DEADLINE_MS",
      "ALLOWED_HOSTS",
      "ALLOWED_HOSTS",
      "IDLE_TIMEOUT_SECONDS",
      "MAX_IN_FLIGHT_PER_CLIENT",
      "CREDITLESS_SIGN_INS_PER_MINUTE",
      "MAX_CREDITLESS_SESSIONS",
    ]);
    expect(refused.join("\n")).not.toContain("short-secret");
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
    expect([
      config.port,
      config.freeQueries,
      config.ceilings["paid-daily-cap"],
      config.ceilings["protection-limit"],
    ]).toEqual([8080, 0, 50, 7]);
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
    expect(config.redis?.kind === "url" && Redacted.value(config.redis.url)).toBe("redis://127.0.0.1:6379");
    expect(config.embeddingModel).toBe("Xenova/all-MiniLM-L6-v2");
  });

  test("DOCS_LANGUAGE names the docs' language; an unknown one is refused", () => {
    const config = Result.getOrThrow(parseConfig({ DOCS_LANGUAGE: "DE" }));
    expect(config.docsLanguage).toBe("de");
    const refused = parseConfig({ DOCS_LANGUAGE: "klingon" });
    expect(Result.isFailure(refused)).toBe(true);
    if (Result.isFailure(refused))
      expect(refused.failure.message).toContain("DOCS_LANGUAGE: must be one of en, de, fr");
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

describe("PRICE_PER_QUESTION", () => {
  test("USDC a question, exact to the base unit: 0.001 by default", () => {
    expect(ok({}).unitsPerQuery).toBe(1_000n);
    expect(ok({ PRICE_PER_QUESTION: "0.002" }).unitsPerQuery).toBe(2_000n);
    expect(ok({ PRICE_PER_QUESTION: "0.000001" }).unitsPerQuery).toBe(1n);
    expect(ok({ PRICE_PER_QUESTION: "1" }).unitsPerQuery).toBe(1_000_000n);
  });

  test.each(["0", "1.000001", "0.0000001", "-0.001", "1e-3", "free"])("%s is refused, named", (price) => {
    expect(
      problems({ PRICE_PER_QUESTION: price }).filter((p) => p.startsWith("PRICE_PER_QUESTION: ")),
    ).toHaveLength(1);
  });
});

describe("mode-dependent rules are listed with the rest", () => {
  test("REDIS_URL on mainnet-beta is named even when the chain variables are themselves wrong", () => {
    expect(
      namesOf(
        problems({
          CHAIN_NETWORK: "mainnet-beta",
          USDC_MINT_ADDRESS: "0xdead",
          PORT: "x",
          CHROMA_URL: "http://c:8000",
        }),
      ).sort(),
    ).toEqual(["PAYMENT_WALLET_ADDRESS", "PORT", "REDIS_URL", "USDC_MINT_ADDRESS", "VECTOR_INDEX_NAME"]);
  });

  test("ALLOW_MEMORY_STORE_ON_MAINNET lifts the REDIS_URL rule; a malformed REDIS_URL is its own problem", () => {
    const mainnet = {
      CHAIN_NETWORK: "mainnet-beta",
      USDC_MINT_ADDRESS: WALLET,
      PAYMENT_WALLET_ADDRESS: WALLET,
    };
    expect(ok({ ...mainnet, ALLOW_MEMORY_STORE_ON_MAINNET: "true" }).redis).toBeUndefined();
    expect(problems({ ...mainnet, REDIS_URL: "no url" })).toEqual([
      "REDIS_URL: is not a valid URL (value hidden)",
    ]);
  });

  test("the Redis WAIT settings need REDIS_URL and whole numbers", () => {
    expect(problems({ REDIS_WAIT_REPLICAS: "1" })).toEqual([
      "REDIS_WAIT_REPLICAS: needs REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (replicas of which Redis?)",
    ]);
    expect(ok({ REDIS_WAIT_REPLICAS: "0", REDIS_WAIT_TIMEOUT_MS: "1000" }).redisWaitReplicas).toBe(0);
    expect(
      namesOf(
        problems({ REDIS_URL: "redis://r:6379", REDIS_WAIT_REPLICAS: "-1", REDIS_WAIT_TIMEOUT_MS: "0" }),
      ),
    ).toEqual(["REDIS_WAIT_REPLICAS", "REDIS_WAIT_TIMEOUT_MS"]);
    const config = ok({
      REDIS_URL: "redis://r:6379",
      REDIS_WAIT_REPLICAS: "2",
      REDIS_WAIT_TIMEOUT_MS: "250",
    });
    expect([config.redisWaitReplicas, config.redisWaitTimeoutMs]).toEqual([2, 250]);
  });
});

describe("HOST", () => {
  test.each(["0.0.0.0", "127.0.0.1", "::", "::1", "localhost", "app.internal"])("%s is accepted", (host) => {
    expect(ok({ HOST: host }).host).toBe(host);
  });
  test.each(["http://0.0.0.0", "0.0.0.0:3000", "host name", "-bad", "1.2.3.4/8"])("%s is refused", (host) => {
    expect(problems({ HOST: host })).toEqual([
      `HOST: must be an IP address or a host name, e.g. 0.0.0.0 or 127.0.0.1 (got "${host}")`,
    ]);
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
    const config = ok({
      ADMIN_TOKEN: "an-admin-token-of-some-length",
      INSIGHTS_SALT: "a-salt-of-some-length",
      INSIGHTS_RETENTION_DAYS: "7",
      INSIGHTS_MAX_EVENTS: "5000",
      INSIGHTS_REDACT_PATTERN: String.raw`ORD-\d+`,
    });
    const { insights } = config;
    expect(Redacted.value(insights.adminToken!)).toBe("an-admin-token-of-some-length");
    expect(String(insights.adminToken)).not.toContain("admin-token");
    expect(Redacted.value(insights.salt!)).toBe("a-salt-of-some-length");
    expect(insights.retentionMs).toBe(7 * 86_400_000);
    expect(config.ceilings["insights-events"]).toBe(5000);
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

describe("x402 v2 configuration", () => {
  const KEY = JSON.stringify(Array.from({ length: 64 }, (_, i) => i));
  test("the fee payer key in either form, kept redacted", () => {
    const json = ok({ X402_FEE_PAYER_SECRET_KEY: KEY }).x402.feePayerSecretKey;
    expect(json === undefined ? undefined : Array.from(Redacted.value(json))).toEqual(JSON.parse(KEY));
    expect(String(json)).not.toContain("63");
    const base58 = ok({ X402_FEE_PAYER_SECRET_KEY: encodeBase58(Uint8Array.from(JSON.parse(KEY))) }).x402;
    expect(base58.feePayerSecretKey === undefined ? 0 : Redacted.value(base58.feePayerSecretKey).length).toBe(
      64,
    );
  });
  test("a bad key is refused without showing it", () => {
    for (const bad of ["[1,2,3]", "not-base58-0OIl", "[300]", encodeBase58(new Uint8Array(32))]) {
      const found = problems({ X402_FEE_PAYER_SECRET_KEY: bad });
      expect(namesOf(found)).toEqual(["X402_FEE_PAYER_SECRET_KEY"]);
      expect(found.join(" ")).not.toContain(bad);
    }
  });
  test("the facilitator endpoints need a long token and the fee payer", () => {
    expect(namesOf(problems({ X402_FACILITATOR_API: "true" }))).toEqual([
      "X402_FACILITATOR_TOKEN",
      "X402_FACILITATOR_API",
    ]);
    expect(
      namesOf(
        problems({
          X402_FACILITATOR_API: "true",
          X402_FACILITATOR_TOKEN: "short",
          X402_FEE_PAYER_SECRET_KEY: KEY,
        }),
      ),
    ).toEqual(["X402_FACILITATOR_TOKEN"]);
    const on = ok({
      X402_FACILITATOR_API: "true",
      X402_FACILITATOR_TOKEN: "a-token-long-enough",
      X402_FEE_PAYER_SECRET_KEY: KEY,
    });
    expect(on.x402.facilitatorToken === undefined ? "" : Redacted.value(on.x402.facilitatorToken)).toBe(
      "a-token-long-enough",
    );
    // The token with the fee payer is enough; without the fee payer, or with the old switch off, they stay off.
    expect(ok({ X402_FACILITATOR_TOKEN: "a-token-long-enough" }).x402.facilitatorToken).toBeUndefined();
    const derived = ok({ X402_FACILITATOR_TOKEN: "a-token-long-enough", X402_FEE_PAYER_SECRET_KEY: KEY });
    expect(
      derived.x402.facilitatorToken === undefined ? "" : Redacted.value(derived.x402.facilitatorToken),
    ).toBe("a-token-long-enough");
    const off = { X402_FACILITATOR_API: "false", X402_FACILITATOR_TOKEN: "a-token-long-enough" };
    expect(ok({ ...off, X402_FEE_PAYER_SECRET_KEY: KEY }).x402.facilitatorToken).toBeUndefined();
  });

  test("X402_PAYMENT_ID_REQUIRED: off by default, on when set", () => {
    expect(ok({}).x402.paymentIdRequired).toBe(false);
    expect(ok({ X402_PAYMENT_ID_REQUIRED: "true" }).x402.paymentIdRequired).toBe(true);
  });

  test("what the facilitator API sponsors: a payTo list of addresses, a minimum in USDC", () => {
    const payTo = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    const other = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    const set = ok({ X402_FACILITATOR_PAY_TO: `${payTo}, ${other}`, X402_FACILITATOR_MIN_AMOUNT: "0.05" });
    expect(set.x402.facilitatorPayTo).toEqual([payTo, other]);
    expect(set.x402.facilitatorMinUnits).toBe(50_000n);
    expect(namesOf(problems({ X402_FACILITATOR_PAY_TO: `${payTo},not-an-address!` }))).toEqual([
      "X402_FACILITATOR_PAY_TO",
    ]);
    for (const amount of ["0", "-1", "2", "0.0000001", "abc"])
      expect(namesOf(problems({ X402_FACILITATOR_MIN_AMOUNT: amount }))).toEqual([
        "X402_FACILITATOR_MIN_AMOUNT",
      ]);
  });
});

describe("MCP_TOOL_PRICES", () => {
  test("tools left out keep their default; a free tool is 0", () => {
    expect(ok({ MCP_TOOL_PRICES: "search_docs=2, read_page=0" }).mcpToolPrices).toEqual({
      search_docs: 2,
      read_page: 0,
      ask_docs: 1,
    });
    expect(ok({ MCP_TOOL_PRICES: "ask_docs=5" }).mcpToolPrices.ask_docs).toBe(5);
  });

  test("an unknown tool, a free ask_docs, a price above 100 or not a whole number: each named", () => {
    expect(problems({ MCP_TOOL_PRICES: "ask=1,ask_docs=0,search_docs=101,read_page=1.5" })).toEqual([
      'MCP_TOOL_PRICES: "ask" is not a tool: search_docs, read_page, ask_docs',
      "MCP_TOOL_PRICES: ask_docs must cost from 1 to 100 questions (got 0)",
      "MCP_TOOL_PRICES: search_docs must cost from 0 to 100 questions (got 101)",
      // The same rules and texts as a sites file's `mcpToolPrices`.
      'MCP_TOOL_PRICES: read_page must cost a whole number of questions (got "1.5")',
    ]);
  });
});

describe("x402 signing key and catalogue settings", () => {
  const SEED = "ab".repeat(32);
  test("the seed is 32 bytes kept redacted; the catalogue names default to the service's", () => {
    const { x402Agents } = ok({ X402_RECEIPT_SIGNING_KEY: SEED.toUpperCase() });
    const seed = x402Agents.receiptSigningKey;
    expect(seed === undefined ? undefined : Array.from(Redacted.value(seed))).toEqual(Array(32).fill(0xab));
    expect(String(seed)).not.toContain("ab");
    expect(x402Agents.service).toEqual({
      serviceName: "Docs assistant",
      tags: ["docs", "search", "answers", "mcp"],
      iconUrl: undefined,
    });
  });

  test("a bad seed is named without its value", () => {
    const seen = problems({ X402_RECEIPT_SIGNING_KEY: `${SEED}ff` });
    expect(namesOf(seen)).toEqual(["X402_RECEIPT_SIGNING_KEY"]);
    expect(seen.join(" ")).not.toContain(SEED);
  });

  test("catalogue settings past the bazaar spec's rules are refused at start, not dropped by a catalogue", () => {
    expect(
      namesOf(
        problems({
          X402_SERVICE_NAME: "A name far longer than thirty-two characters",
          X402_SERVICE_TAGS: "a,b,c,d,e,f",
          X402_SERVICE_ICON_URL: "https://127.0.0.1/icon.png",
        }),
      ).sort(),
    ).toEqual(["X402_SERVICE_ICON_URL", "X402_SERVICE_NAME", "X402_SERVICE_TAGS"]);
    const long = `https://docs.example.com/${"i".repeat(2049 - 29)}.png`;
    expect(namesOf(problems({ X402_SERVICE_ICON_URL: long }))).toEqual(["X402_SERVICE_ICON_URL"]);
    for (const icon of [
      "http://localhost/i.png",
      "https://user@docs.example.com/i.png",
      "data:image/png;base64,AA",
    ])
      expect(namesOf(problems({ X402_SERVICE_ICON_URL: icon }))).toEqual(["X402_SERVICE_ICON_URL"]);
    expect(
      ok({
        X402_SERVICE_NAME: "Acme docs",
        X402_SERVICE_TAGS: "acme, api",
        X402_SERVICE_ICON_URL: "https://acme.dev/i.png",
      }).x402Agents.service,
    ).toEqual({ serviceName: "Acme docs", tags: ["acme", "api"], iconUrl: "https://acme.dev/i.png" });
  });
});
