/**
 * Start-up with a bad configuration: the real process exits non-zero with ONE message that
 * names every bad variable, starts nothing (no demo chain state written), and never prints a
 * secret value, not even one given in a malformed variable.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToExit } from "../support/service-process.ts";

const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const SECRETS = {
  PAYMENT_WALLET_SECRET_KEY: "[1,2,3]",
  REDIS_URL: "not a url with password hunter2",
  VECTOR_API_KEY: "vk-super-secret-4711",
};

/** Runs the service in a fresh dir: exit code, output, and whether it wrote .data/ there. */
const start = async (env: Record<string, string>) => {
  const cwd = mkdtempSync(join(tmpdir(), "service-config-"));
  const result = await runToExit({ env, cwd });
  const startedSomething = existsSync(join(cwd, ".data"));
  rmSync(cwd, { recursive: true, force: true });
  return { ...result, startedSomething };
};

const problemLines = (output: string) => output.split("\n").filter((line) => line.startsWith("  - "));

test("every bad variable is listed in one message; secret values never appear", async () => {
  const { code, output, startedSomething } = await start({
    ...SECRETS,
    PORT: "eighty",
    RATE_LIMIT_FREE_QUERIES: "-1",
    PROTECTION_RATE_LIMIT: "0",
    CHAIN_NETWORK: "moonnet",
    USDC_MINT_ADDRESS: "not-base58-0OIl",
    PAYMENT_WALLET_ADDRESS: WALLET,
    ALLOWED_ORIGINS: "https://docs.example.com,*",
    TRUST_PROXY: "maybe",
    PAYMENT_MEMO_REQUIRED: "perhaps",
  });
  expect(code).not.toBe(0);
  expect(output.match(/Invalid configuration/g)?.length).toBe(1);
  const named = problemLines(output).map((line) => line.slice(4, line.indexOf(":")));
  expect(new Set(named)).toEqual(
    new Set([
      "PORT",
      "RATE_LIMIT_FREE_QUERIES",
      "PROTECTION_RATE_LIMIT",
      "CHAIN_NETWORK",
      "USDC_MINT_ADDRESS",
      "ALLOWED_ORIGINS",
      "TRUST_PROXY",
      "PAYMENT_MEMO_REQUIRED",
      "REDIS_URL",
      "PAYMENT_WALLET_SECRET_KEY",
      "VECTOR_INDEX_NAME",
    ]),
  );
  for (const secret of [...Object.values(SECRETS), "hunter2"]) expect(output).not.toContain(secret);
  expect(output).toContain('"eighty"'); // non-secret values are echoed, to help fixing them
  expect(startedSomething).toBe(false); // exited before starting anything
}, 30_000);

test("a well-formed secret key of another wallet is refused without printing it", async () => {
  const key = JSON.stringify(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256));
  const { code, output } = await start({
    CHAIN_NETWORK: "devnet",
    USDC_MINT_ADDRESS: WALLET,
    PAYMENT_WALLET_ADDRESS: WALLET,
    PAYMENT_WALLET_SECRET_KEY: key,
  });
  expect(code).not.toBe(0);
  expect(problemLines(output)).toEqual([
    "  - PAYMENT_WALLET_SECRET_KEY: does not belong to PAYMENT_WALLET_ADDRESS (value hidden)",
  ]);
  expect(output).not.toContain(key);
  expect(output).not.toContain(key.slice(1, 20));
}, 30_000);

test("an unreachable Redis fails the start (non-zero), without printing the password", async () => {
  const { code, output, logs } = await start({ REDIS_URL: "redis://:hunter2@127.0.0.1:1" });
  expect(code).not.toBe(0);
  expect(logs.some((line) => line.level === "ERROR" && line.msg === "startup failed")).toBe(true);
  expect(output).not.toContain("hunter2");
}, 30_000);
