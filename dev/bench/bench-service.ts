/**
 * The real service (`bun src/main.ts`) as the load benchmarks run it: in its own folder (the
 * demo index is built there), memory store, a configured local chain started here (so the
 * service loads no LiteSVM), the free quota and the protection limit out of the way.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainEnv, startTestChain } from "../../test/support/localnet.ts";
import { startService } from "../../test/support/service-process.ts";

/** Resident set size of a process in MB, from /proc (Linux). */
export const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) / 1024;

/** The service output a bench keeps: its last 64 KB (for an error message); a bench's access log would fill the harness's memory. */
export const BENCH_OUTPUT_TAIL = 64 * 1024;

export const startBenchService = async (
  name: string,
  env: Readonly<Record<string, string>> = {},
  /** The service command; default `bun src/main.ts`. */
  command?: ReadonlyArray<string>,
) => {
  const work = mkdtempSync(join(tmpdir(), `${name}-`));
  const chain = await startTestChain();
  const service = await startService({
    cwd: work,
    command,
    outputTail: BENCH_OUTPUT_TAIL,
    env: { RATE_LIMIT_FREE_QUERIES: "1000000", PROTECTION_RATE_LIMIT: "1000000", ...chainEnv(chain), ...env },
  });
  /** A transfer claimed once: every later submission of it takes the "already used" path (no RPC call). */
  const usedPayment = async () => {
    // Sent after the service started: with the memory store, older transfers are refused.
    const payment = { signature: await chain.sendUsdc({ units: 10_000n }), amount: 0.01, token: "USDC" };
    if ((await service.call("/api/payment", payment)).status !== 200)
      throw new Error("the setup payment failed");
    return payment;
  };
  const stop = async () => {
    await service.dispose();
    await chain.stop();
    rmSync(work, { recursive: true, force: true });
  };
  return { work, chain, service, usedPayment, stop };
};
