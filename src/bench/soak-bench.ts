/**
 * The soak test (on demand, not in CI: `npm run bench -- soak`): BENCH_SOAK_SECONDS (default
 * 600) of load on the real service, the four endpoints in turn in 30-second slices (wrk, 8
 * connections, from many client addresses through X-Forwarded-For so the store keeps growing
 * its per-client state), the service's RSS sampled after each slice. Goal: flat memory, the
 * last sample within 10% of the one after the first minute (the baseline of the same run).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { rssMb, startBenchService } from "./bench-service.ts";
import { record } from "./report.ts";

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const SLICE = Math.min(30, SECONDS);

/** A wrk script sending `method path` with `body`, each request from one of 65,536 client addresses. */
const script = (method: string, body: string | undefined) => `
wrk.method = "${method}"
${body === undefined ? "" : `wrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"`}
counter = 0
request = function()
  counter = counter + 1
  wrk.headers["X-Forwarded-For"] = string.format("10.9.%d.%d", math.floor(counter / 256) % 256, counter % 256)
  return wrk.format()
end
`;

const { work, service, usedPayment, stop } = await startBenchService("soak-bench", {
  TRUST_PROXY: "loopback",
});
try {
  const used = (await usedPayment()).signature;
  const slices = [
    ["GET", "/api/status", undefined],
    ["GET", "/api/payment/info", undefined],
    ["POST", "/api/chat", JSON.stringify({ message: "How do I pay for more questions?" })],
    ["POST", "/api/payment", JSON.stringify({ signature: used, amount: 0.01, token: "USDC" })],
  ] as const;
  const samples: Array<{ at: number; rss: number }> = [];
  const started = performance.now();
  for (let slice = 0; (performance.now() - started) / 1000 < SECONDS; slice++) {
    const [method, path, body] = slices[slice % slices.length]!;
    const file = join(work, "soak.lua");
    writeFileSync(file, script(method, body));
    const wrk = Bun.spawn(["wrk", "-t1", "-c8", `-d${SLICE}s`, "-s", file, `${service.url}${path}`], {
      stdout: "ignore",
      stderr: "ignore",
    });
    await wrk.exited;
    const sample = { at: Math.round((performance.now() - started) / 1000), rss: rssMb(service.pid) };
    samples.push(sample);
    console.log(`  ${String(sample.at).padStart(4)} s  ${path.padEnd(18)} RSS ${sample.rss.toFixed(1)} MB`);
  }
  const firstMinute = samples.find((sample) => sample.at >= 60) ?? samples[0]!;
  const last = samples.at(-1)!;
  const peak = Math.max(...samples.map((sample) => sample.rss));
  record("soak", {
    title: "Soak (on demand)",
    method: `${SECONDS} s of load on the real service, the four endpoints in turn in ${SLICE}-second slices (wrk, 8 connections, 65,536 client addresses), RSS sampled after each slice; baseline: the sample after the first minute.`,
    figures: [
      {
        measure: "RSS at the end",
        value: `${last.rss.toFixed(1)} MB`,
        baseline: `${firstMinute.rss.toFixed(1)} MB at ${firstMinute.at} s`,
        comparison: `${(((last.rss - firstMinute.rss) / firstMinute.rss) * 100).toFixed(1)}%`,
        goal: "flat: within 10%",
        met: last.rss <= firstMinute.rss * 1.1,
      },
      { measure: "peak RSS", value: `${peak.toFixed(1)} MB` },
    ],
    notes: [
      `samples (s: MB): ${samples.map((sample) => `${sample.at}: ${sample.rss.toFixed(0)}`).join(", ")}`,
    ],
  });
} finally {
  await stop();
}
