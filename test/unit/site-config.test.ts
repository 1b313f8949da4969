/**
 * A site's own AppConfig and chain (src/sites/site-config.ts): the site's settings in place,
 * its index beside the default site's and never the same, the service's settings otherwise.
 */
import { describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { type AppConfig, type ChainConfig, parseConfig } from "../../core/config/config.ts";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import { siteAppConfig, siteChain } from "../../src/sites/site-config.ts";

const SERVICE_WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const SITE_WALLET = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";

const config = (env: Record<string, string>): AppConfig => Result.getOrThrow(parseConfig(env));
const BASE = config({
  RATE_LIMIT_FREE_QUERIES: "3",
  ALLOWED_ORIGINS: "https://service.example",
  LLM_API_KEY: "groq-key",
  INDEX_PATH: "/var/lib/docs-chat/index.bin",
  MCP_TOOL_PRICES: "ask_docs=1",
  DOCS_URL: "https://docs.service.example",
  DOCS_COLLECTION: "service",
  DOCS_MAX_PAGES: "10",
  CHAIN_NETWORK: "devnet",
  USDC_MINT_ADDRESS: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
  PAYMENT_WALLET_ADDRESS: SERVICE_WALLET,
});

const site = (overrides: Partial<SiteDefinition> = {}): SiteDefinition => ({
  id: "acme",
  docs: { kind: "url", url: "https://docs.acme.dev" },
  origins: ["https://acme.dev"],
  hosts: [],
  title: undefined,
  unitsPerQuery: 2000n,
  freeQueries: 7,
  wallet: undefined,
  ownerTokenSha256: undefined,
  mcpToolPrices: { search_docs: 1, read_page: 0, ask_docs: 3 },
  llm: true,
  productName: undefined,
  ...overrides,
});

describe("siteAppConfig", () => {
  test("the site's settings replace the service's; the rest is the service's", () => {
    const derived = siteAppConfig(BASE, site());
    expect(derived).toEqual({
      ...BASE,
      freeQueries: 7,
      allowedOrigins: ["https://acme.dev"],
      vector: { kind: "local", indexPath: "/var/lib/docs-chat/sites/acme/index.bin" },
      mcpToolPrices: { search_docs: 1, read_page: 0, ask_docs: 3 },
      unitsPerQuery: 2000n,
      docsSite: { ...BASE.docsSite, url: "https://docs.acme.dev", collection: undefined },
      sitesFile: undefined,
    });
    expect(derived.llm).toBe(BASE.llm);
    expect(derived.ceilings["docs-pages"]).toBe(10);
  });

  test("llm:false takes the language model away; a folder site syncs no URL", () => {
    const derived = siteAppConfig(BASE, site({ llm: false, docs: { kind: "folder", path: "/srv/acme" } }));
    expect(derived.llm).toBeUndefined();
    expect(derived.docsSite.url).toBeUndefined();
  });

  test("the default index path puts a site's index under .data/sites/<id>/", () => {
    expect(siteAppConfig(config({}), site({ id: "bravo" })).vector).toEqual({
      kind: "local",
      indexPath: ".data/sites/bravo/index.bin",
    });
  });

  test("with Chroma a site has a collection of its own", () => {
    const chroma = config({ CHROMA_URL: "http://127.0.0.1:8000", VECTOR_INDEX_NAME: "docs" });
    expect(siteAppConfig(chroma, site()).vector).toEqual({
      kind: "chroma",
      url: "http://127.0.0.1:8000",
      apiKey: undefined,
      collection: "docs-site-acme",
    });
  });

  test("the chain takes the site's wallet; the demo chain (none configured) stays none", () => {
    expect(siteAppConfig(BASE, site({ wallet: SITE_WALLET })).chain?.wallet).toBe(SITE_WALLET);
    expect(siteAppConfig(BASE, site()).chain).toEqual(BASE.chain);
    expect(siteAppConfig(config({}), site({ wallet: SITE_WALLET })).chain).toBeUndefined();
  });
});

describe("siteChain", () => {
  const chain: ChainConfig = {
    network: "localnet",
    usdcMint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    wallet: SERVICE_WALLET,
    rpcUrl: "http://127.0.0.1:8899",
    walletSecretKey: Redacted.make(new Uint8Array(64)),
  };

  test("no wallet of its own: the service's chain, key included", () => {
    expect(siteChain(chain, site())).toBe(chain);
  });

  test("a wallet of its own: that wallet, and not the service's key", () => {
    expect(siteChain(chain, site({ wallet: SITE_WALLET }))).toEqual({
      ...chain,
      wallet: SITE_WALLET,
      walletSecretKey: undefined,
    });
  });
});
