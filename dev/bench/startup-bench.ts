/**
 * Cold start and idle memory of the real service (`bun src/main.ts`) with the demo index (this
 * project's README and docs/, indexed at the first start) and a configured chain (a local
 * chain run by this script, so the service itself loads no LiteSVM), beside a bare Hono
 * process measured the same way in the same run. Goals: cold start to the first answer < 1 s;
 * RSS at idle < 80 MB. Loopback only; stops what it starts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../test/support/free-port.ts";
import { chainEnv, startTestChain } from "../../test/support/localnet.ts";
import { BUN_ENTRY, REPO_ROOT } from "../../test/support/service-process.ts";
import { rssMb } from "./bench-service.ts";
import { record } from "./report.ts";
import { fmt } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_STARTS ?? 5);
const IDLE_MS = 3000;

const median = (values: ReadonlyArray<number>) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Spawns `command` in `cwd`, times it to the first 200 of `probe`, then measures RSS after IDLE_MS. */
const measure = async (
  command: ReadonlyArray<string>,
  env: Record<string, string>,
  probe: (url: string) => Promise<boolean>,
  cwd: string,
) => {
  const port = await freePort();
  const started = performance.now();
  const proc = Bun.spawn([...command], {
    cwd,
    env: { PATH: process.env.PATH ?? "", PORT: String(port), ...env },
    stdout: "ignore",
    stderr: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    while (!(await probe(url).catch(() => false))) {
      if (performance.now() - started > 30_000)
        throw new Error(`${command.join(" ")} did not answer in 30 s`);
      await Bun.sleep(5);
    }
    const coldMs = performance.now() - started;
    await Bun.sleep(IDLE_MS);
    return { coldMs, rss: rssMb(proc.pid) };
  } finally {
    proc.kill("SIGKILL");
    await proc.exited;
  }
};

/** A first start in a fresh folder (it builds the demo index), then a restart there (the index exists). */
const startTwice = async (
  command: ReadonlyArray<string>,
  env: Record<string, string>,
  probe: (url: string) => Promise<boolean>,
) => {
  const cwd = mkdtempSync(join(tmpdir(), "startup-bench-"));
  try {
    const first = await measure(command, env, probe, cwd);
    const again = await measure(command, env, probe, cwd);
    return { first, again };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
};

const chain = await startTestChain();
try {
  const serviceEnv = {
    NODE_ENV: process.env.BENCH_NODE_ENV ?? "production",
    ...chainEnv(chain),
  };
  const firstAnswer = async (url: string) =>
    (
      await fetch(`${url}/api/chat`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: "How do I pay for more questions?" }),
      })
    ).status === 200;
  const firstReply = async (url: string) => (await fetch(`${url}/api/status`)).status === 200;
  const bare = [process.execPath, join(REPO_ROOT, "dev/bench/servers/bare-hono.ts")];
  const runs: Array<Awaited<ReturnType<typeof startTwice>>> = [];
  const baseline: Array<{ coldMs: number; rss: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    runs.push(await startTwice(BUN_ENTRY, serviceEnv, firstAnswer));
    baseline.push((await startTwice(bare, {}, firstReply)).first);
  }
  const of = (pick: (run: (typeof runs)[number]) => number) => median(runs.map(pick));
  const cold = of((run) => run.first.coldMs);
  const coldAgain = of((run) => run.again.coldMs);
  const rssFirst = of((run) => run.first.rss);
  const rss = of((run) => run.again.rss);
  const coldBase = median(baseline.map((s) => s.coldMs));
  const rssBase = median(baseline.map((s) => s.rss));
  console.log(`\nStartup, ${ROUNDS} rounds (median), configured chain, memory store, extractive answers`);
  console.log(
    `  first start (builds the demo index) to the first answer: ${fmt(cold)}; RSS at idle ${rssFirst.toFixed(1)} MB`,
  );
  console.log(
    `  restart (the index exists) to the first answer: ${fmt(coldAgain)}; RSS at idle ${rss.toFixed(1)} MB`,
  );
  console.log(`  bare Hono: first reply ${fmt(coldBase)}, RSS ${rssBase.toFixed(1)} MB`);
  const versusBase = (ms: number) => ({ baseline: fmt(coldBase), comparison: `+${fmt(ms - coldBase)}` });
  record("startup", {
    title: "Cold start and idle memory",
    method: `${ROUNDS} rounds (median) of \`bun src/main.ts\` (NODE_ENV=production, as in the image) in a fresh folder: a first start, which builds the demo index from the README and docs/, then a restart in the same folder, which loads it; a configured chain (no LiteSVM in the service), extractive answers, memory store. Timed from spawn to the first 200 of POST /api/chat, RSS read ${IDLE_MS / 1000} s later. Baseline: a bare Hono app on Bun, timed to its first reply.`,
    figures: [
      {
        measure: "cold start to the first answer (first start)",
        value: fmt(cold),
        ...versusBase(cold),
        goal: "< 1 s",
        met: cold < 1000,
      },
      {
        measure: "cold start to the first answer (restart)",
        value: fmt(coldAgain),
        ...versusBase(coldAgain),
      },
      {
        measure: "RSS at idle, with the demo index (restart)",
        value: `${rss.toFixed(1)} MB`,
        baseline: `${rssBase.toFixed(1)} MB`,
        comparison: `+${(rss - rssBase).toFixed(1)} MB`,
        goal: "< 80 MB",
        met: rss < 80,
      },
      {
        measure: "RSS at idle after the first start (it built the index)",
        value: `${rssFirst.toFixed(1)} MB`,
        baseline: `${rssBase.toFixed(1)} MB`,
      },
    ],
  });
} finally {
  await chain.stop();
}
