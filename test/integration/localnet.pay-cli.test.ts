/** `npm run pay` (dev/cli/pay.ts) as a user runs it, against a local chain started here. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, createSolanaRpc, type Signature } from "@solana/kit";
import { type Localnet, startLocalnet } from "../../dev/localnet/index.ts";
import { keypairJson, newKeypair } from "../../dev/localnet/keys.ts";
import { freePort } from "../support/free-port.ts";
import { freshAddress, parsedTransaction, tokenBalance } from "../support/localnet.ts";

let dir: string;
let stateFile: string;
let localnet: Localnet;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pay-cli-"));
  stateFile = join(dir, "localnet.json");
  localnet = await startLocalnet({ port: await freePort(), stateFile });
});
afterAll(async () => {
  await localnet.stop();
  await rm(dir, { recursive: true, force: true });
});

const pay = async (...args: Array<string>) => {
  const child = Bun.spawn([process.execPath, "dev/cli/pay.ts", ...args], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout: stdout.trim(), stderr, code };
};

const usdcOf = (owner: Address): Promise<bigint> =>
  tokenBalance(createSolanaRpc(localnet.url), localnet.mint, owner);

describe("pay CLI", () => {
  test("with only --amount it pays the local service wallet from the state file, and --json reports it", async () => {
    const before = await usdcOf(localnet.serviceWallet);
    const run = await pay("--amount", "0.10", "--memo", "docs-chat:abc", "--json", "--state-file", stateFile);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, string>;
    expect(report).toMatchObject({
      amount: "0.10",
      units: "100000",
      to: localnet.serviceWallet,
      mint: localnet.mint,
      memo: "docs-chat:abc",
    });
    expect(await usdcOf(localnet.serviceWallet)).toBe(before + 100_000n);
    const tx = await parsedTransaction(createSolanaRpc(localnet.url), report.signature as Signature);
    expect(
      tx?.transaction.message.instructions.some(
        (ix) => (ix as { parsed?: unknown }).parsed === "docs-chat:abc",
      ),
    ).toBe(true);
    // The state file holds the payer's secret key; the CLI must not print it.
    const secret = JSON.stringify(
      (JSON.parse(await readFile(stateFile, "utf8")) as { payer: unknown }).payer,
    );
    expect(run.stdout + run.stderr).not.toContain(secret.slice(1, 40));
  });

  test("with explicit --rpc/--keypair/--mint/--to and no state file (as on devnet) it prints the bare signature", async () => {
    const payer = await newKeypair();
    await localnet.airdrop(payer.signer.address, 1_000_000_000n);
    await localnet.mintTokens(payer.signer.address, 2_000_000n);
    const keypairFile = join(dir, "payer.json");
    await writeFile(keypairFile, JSON.stringify(keypairJson(payer)));
    const to = await freshAddress();
    const run = await pay(
      "--amount",
      "1.5",
      "--rpc",
      localnet.url,
      "--keypair",
      keypairFile,
      "--mint",
      localnet.mint,
      "--to",
      to,
      "--state-file",
      join(dir, "none.json"),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(await usdcOf(to)).toBe(1_500_000n);
    expect(await usdcOf(payer.signer.address)).toBe(500_000n);
  });

  test("bad input fails with a message and exit code 1, and moves nothing", async () => {
    const before = await usdcOf(localnet.serviceWallet);
    const badKeypair = join(dir, "bad.json");
    await writeFile(badKeypair, JSON.stringify([1, 2, 3]));
    const cases: ReadonlyArray<[ReadonlyArray<string>, RegExp]> = [
      [["--state-file", stateFile], /--amount is required/],
      [["--amount", "abc", "--state-file", stateFile], /not a plain decimal/],
      [["--amount", "0.0000001", "--state-file", stateFile], /more than 6 decimal places/],
      [["--amount", "0", "--state-file", stateFile], /more than zero/],
      [["--amount", "0.1", "--to", "nope", "--state-file", stateFile], /not a valid address/],
      [["--amount", "5000", "--state-file", stateFile], /holds .* less than 5000\.00/],
      [["--amount", "0.1", "--keypair", badKeypair, "--state-file", stateFile], /64 bytes/],
      [["--amount", "0.1", "--state-file", join(dir, "none.json")], /--rpc is required/],
      [["--amount", "0.1", "--bogus", "--state-file", stateFile], /bogus/],
    ];
    // A state file whose chain is running but does not answer: the URL is named.
    const silentPort = await freePort();
    const silent = join(dir, "silent.json");
    await writeFile(
      silent,
      (await readFile(stateFile, "utf8")).replace(localnet.url, `http://127.0.0.1:${silentPort}`),
    );
    const unreachable = await pay("--amount", "0.1", "--state-file", silent);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(
      `cannot reach the Solana RPC at http://127.0.0.1:${silentPort} (from ${silent}): `,
    );
    const viaFlag = await pay(
      "--amount",
      "0.1",
      "--state-file",
      stateFile,
      "--rpc",
      `http://u:pw@127.0.0.1:${silentPort}/?api-key=k3y`,
    );
    expect(viaFlag.stderr).toContain(`cannot reach the Solana RPC at http://127.0.0.1:${silentPort}: `);
    expect(viaFlag.stderr).not.toMatch(/k3y|pw@/);
    for (const [args, message] of cases) {
      const run = await pay(...args);
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe("");
    }
    expect(await usdcOf(localnet.serviceWallet)).toBe(before);
  });
});

describe("the state file has one owner", () => {
  test("a chain refuses a state file another running process owns, and takes over a stale one", async () => {
    const owned = join(dir, "owned.json");
    const other = Bun.spawn(["sleep", "30"]);
    try {
      const body = JSON.parse(await readFile(stateFile, "utf8"));
      await writeFile(owned, JSON.stringify({ ...body, pid: other.pid }));
      await expect(startLocalnet({ port: await freePort(), stateFile: owned })).rejects.toThrow(
        `${owned} belongs to a local chain still running (pid ${other.pid})`,
      );
      expect(JSON.parse(await readFile(owned, "utf8")).pid).toBe(other.pid); // untouched
    } finally {
      other.kill("SIGKILL");
      await other.exited;
    }
    const taken = await startLocalnet({ port: await freePort(), stateFile: owned });
    expect(JSON.parse(await readFile(owned, "utf8"))).toMatchObject({ pid: process.pid, rpcUrl: taken.url });
    await taken.stop();
  });
});
