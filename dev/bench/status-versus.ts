/**
 * `bun dev/bench/status-versus.ts <checkout A> <checkout B> [rounds]`: GET /api/status of two
 * versions of the app compared with each other, not with bare Hono: both checkouts' status
 * servers (dev/bench/servers/status-app.ts, or src/bench/servers/ in checkouts from before the
 * move) on the last core, loaded at once by two wrk on the first, so machine drift hits both
 * alike. Prints each round's req/s and B/A. Give each checkout a node_modules (a symlink to this
 * one's will do). Loopback only; stops the servers it started.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort, waitFor } from "../../test/support/free-port.ts";
import { runWrk } from "./load.ts";

const [first, second, roundsText = "3"] = process.argv.slice(2);
if (first === undefined || second === undefined) {
  console.error("usage: bun dev/bench/status-versus.ts <checkout A> <checkout B> [rounds]");
  process.exit(2);
}
const cpus = navigator.hardwareConcurrency;
const pin = (core: number, command: string[]) =>
  Bun.which("taskset") === null || cpus < 2 ? command : ["taskset", "-c", String(core), ...command];

const serverOf = (checkout: string) =>
  ["dev/bench/servers/status-app.ts", "src/bench/servers/status-app.ts"]
    .map((path) => join(checkout, path))
    .find((path) => existsSync(path));

const start = async (checkout: string) => {
  const script = serverOf(checkout);
  if (script === undefined) throw new Error(`${checkout} has no status-app.ts`);
  const port = await freePort();
  const proc = Bun.spawn(pin(cpus - 1, [process.execPath, script, String(port)]), {
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}/api/status`;
  await waitFor(
    async () => (await fetch(url).catch(() => undefined))?.ok === true,
    15_000,
    "the status server",
  );
  return { url, stop: () => proc.kill() };
};

const a = await start(first);
const b = await start(second);
try {
  const load = { seconds: 8, connections: 32, threads: 1, wrap: (command: string[]) => pin(0, command) };
  for (let round = 1; round <= Number(roundsText); round++) {
    const [ra, rb] = await Promise.all([runWrk(a.url, load), runWrk(b.url, load)]);
    console.log(
      `round ${round}: A ${ra.rps.toFixed(0)} req/s, B ${rb.rps.toFixed(0)} req/s, B/A ${(rb.rps / ra.rps).toFixed(3)}`,
    );
  }
} finally {
  a.stop();
  b.stop();
}
