/**
 * Sustained load on each endpoint of the real service (`bun src/main.ts`, demo index, memory
 * store, a configured local chain): wrk at the highest rate the machine holds (closed loop,
 * 32 connections) for BENCH_LOAD_SECONDS (default 60) per endpoint, every response's status
 * counted by class. Goal: zero 5xx; p99 reported. Baseline: a bare Hono route under the same
 * wrk settings in the same run. Loopback only; stops what it starts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, waitFor } from "../../test/support/free-port.ts";
import { REPO_ROOT } from "../../test/support/service-process.ts";
import { rssMb, startBenchService } from "./bench-service.ts";
import { type Figure, record } from "./report.ts";

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CONNECTIONS = 32;

interface Endpoint {
  readonly name: string;
  readonly path: string;
  readonly method: "GET" | "POST";
  readonly body?: unknown;
}

/** A wrk script: the request, and a count of responses per status class printed at the end. */
const wrkScript = (endpoint: Endpoint): string => `
wrk.method = "${endpoint.method}"
${endpoint.body === undefined ? "" : `wrk.body = ${JSON.stringify(JSON.stringify(endpoint.body))}\nwrk.headers["Content-Type"] = "application/json"`}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) classes = {0, 0, 0, 0, 0} end
function response(status, headers, body)
  local class = math.floor(status / 100)
  if class >= 1 and class <= 5 then classes[class] = classes[class] + 1 end
end
function done(summary, latency, requests)
  local total = {0, 0, 0, 0, 0}
  for _, thread in ipairs(threads) do
    local counted = thread:get("classes")
    for i = 1, 5 do total[i] = total[i] + counted[i] end
  end
  io.write(string.format("CLASSES %d %d %d %d %d\\n", total[1], total[2], total[3], total[4], total[5]))
  io.write(string.format("P99US %d\\n", latency:percentile(99)))
  io.write(string.format("P50US %d\\n", latency:percentile(50)))
  io.write(string.format("RPS %f\\n", summary.requests / (summary.duration / 1e6)))
  io.write(string.format("SOCKETERRORS %d\\n", summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`;

const run = async (url: string, endpoint: Endpoint, seconds: number, work: string) => {
  const script = join(work, `${endpoint.name.replace(/\W+/g, "-")}.lua`);
  writeFileSync(script, wrkScript(endpoint));
  const proc = Bun.spawn(
    ["wrk", "-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "-s", script, `${url}${endpoint.path}`],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const text = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`);
  const number = (label: string) =>
    Number(new RegExp(`^${label} ([\\d.]+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  const classes = /^CLASSES (\d+) (\d+) (\d+) (\d+) (\d+)$/m.exec(text)?.slice(1).map(Number) ?? [];
  return {
    rps: number("RPS"),
    p50Ms: number("P50US") / 1000,
    p99Ms: number("P99US") / 1000,
    by: { "2xx": classes[1] ?? 0, "4xx": classes[3] ?? 0, "5xx": classes[4] ?? 0 },
    socketErrors: number("SOCKETERRORS"),
  };
};

const { work, service, usedPayment, stop } = await startBenchService("load-bench");
const port = await freePort();
const bare = Bun.spawn([process.execPath, join(REPO_ROOT, "dev/bench/servers/bare-hono.ts"), String(port)], {
  stdout: "ignore",
  stderr: "inherit",
});
try {
  const bareUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${bareUrl}/api/status`)).ok, 15_000, "bare Hono");
  const payment = await usedPayment();
  const endpoints: ReadonlyArray<Endpoint> = [
    { name: "GET /api/status", path: "/api/status", method: "GET" },
    { name: "GET /api/payment/info", path: "/api/payment/info", method: "GET" },
    {
      name: "POST /api/chat",
      path: "/api/chat",
      method: "POST",
      body: { message: "How do I pay for more questions?" },
    },
    { name: "POST /api/payment (a used signature)", path: "/api/payment", method: "POST", body: payment },
  ];
  const baseline = await run(
    bareUrl,
    { name: "bare", path: "/api/status", method: "GET" },
    Math.min(SECONDS, 20),
    work,
  );
  console.log(
    `\nbaseline bare Hono GET: ${baseline.rps.toFixed(0)} req/s, p99 ${baseline.p99Ms.toFixed(2)} ms`,
  );
  const figures: Figure[] = [];
  let all5xx = 0;
  for (const endpoint of endpoints) {
    const result = await run(service.url, endpoint, SECONDS, work);
    all5xx += result.by["5xx"];
    const rss = rssMb(service.pid);
    console.log(
      `${endpoint.name.padEnd(40)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms  2xx ${result.by["2xx"]}  4xx ${result.by["4xx"]}  5xx ${result.by["5xx"]}  socket errors ${result.socketErrors}  RSS ${rss.toFixed(0)} MB`,
    );
    figures.push({
      measure: `${endpoint.name}: req/s, p99 (2xx / 4xx / 5xx)`,
      value: `${result.rps.toFixed(0)} req/s, p99 ${result.p99Ms.toFixed(2)} ms (${result.by["2xx"]} / ${result.by["4xx"]} / ${result.by["5xx"]})`,
      baseline: `${baseline.rps.toFixed(0)} req/s, p99 ${baseline.p99Ms.toFixed(2)} ms`,
      comparison: `${(result.rps / baseline.rps).toFixed(2)}x`,
      goal: "zero 5xx",
      met: result.by["5xx"] === 0 && result.socketErrors === 0,
    });
  }
  figures.push({ measure: "service RSS after all the load", value: `${rssMb(service.pid).toFixed(0)} MB` });
  console.log(`5xx in all: ${all5xx}`);
  record("load", {
    title: "Sustained load per endpoint",
    method: `wrk, 1 thread, ${CONNECTIONS} connections, ${SECONDS} s per endpoint at the highest rate the machine holds (closed loop), against the real service (\`bun src/main.ts\`: memory store, demo index, extractive answers, a configured local chain), statuses counted per class by a wrk script; baseline: a bare Hono GET route under the same settings (${Math.min(SECONDS, 20)} s). Payments are submissions of an already-used signature (the store refuses them before any RPC call).`,
    figures,
  });
} finally {
  bare.kill();
  await stop();
}
