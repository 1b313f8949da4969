/**
 * One `ask_docs` call over MCP (the official client, Streamable HTTP) beside one POST /api/chat
 * of the same question, on the real service (`npm start`'s entry, embedded defaults: the demo
 * index, extractive answers), interleaved, one at a time: p50/p95 of each and the difference,
 * which is what MCP's JSON-RPC framing and its per-request server add. Loopback only; stops the
 * service it started.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startService } from "../../test/support/service-process.ts";
import { record } from "./report.ts";
import { fmt, summary } from "./stats.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const QUESTIONS = [
  "How do I pay for more questions?",
  "How do I run several instances?",
  "What does the widget need on my page?",
  "How is a payment verified?",
];

const service = await startService({ env: { RATE_LIMIT_FREE_QUERIES: String(REQUESTS * 4) } });
try {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
  const mcp: number[] = [];
  const chat: number[] = [];
  const timed = async (samples: number[], call: () => Promise<unknown>) => {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  };
  for (let i = 0; i < REQUESTS + 20; i++) {
    const question = QUESTIONS[i % QUESTIONS.length] as string;
    const warm = i < 20;
    await timed(warm ? [] : mcp, () => client.callTool({ name: "ask_docs", arguments: { question } }));
    await timed(warm ? [] : chat, async () =>
      (await service.call("/api/chat", { message: question })).text(),
    );
  }
  await client.close();
  const m = summary(mcp);
  const c = summary(chat);
  console.log(`ask_docs over MCP    p50 ${fmt(m.p50)}   p95 ${fmt(m.p95)}`);
  console.log(`POST /api/chat       p50 ${fmt(c.p50)}   p95 ${fmt(c.p95)}`);
  record("mcp", {
    title: "ask_docs over MCP beside POST /api/chat",
    method: `The real service (npm start's entry, embedded defaults: the demo index, extractive answers), ${REQUESTS} calls of each after 20 warm-up ones, interleaved, one at a time, the same four questions cycled; the official MCP client over Streamable HTTP against POST /api/chat with JSON.`,
    figures: [
      {
        measure: "ask_docs p50 / p95",
        value: `${fmt(m.p50)} / ${fmt(m.p95)}`,
        baseline: `${fmt(c.p50)} / ${fmt(c.p95)} (POST /api/chat)`,
        comparison: `+${fmt(m.p50 - c.p50)} / +${fmt(m.p95 - c.p95)}`,
      },
    ],
  });
} finally {
  await service.dispose();
}
