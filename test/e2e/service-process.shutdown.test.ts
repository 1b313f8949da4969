/**
 * Graceful shutdown of the real process, for both entry points (`bun src/main.ts` and
 * `deno run src/deno.ts`): SIGTERM while a chat answer is being generated lets that answer
 * finish (200), refuses new connections, then exits 0. The answer is held open by a loopback
 * stand-in for the LLM that replies only when the test says so.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { dirname } from "node:path";
import { freePort, waitFor } from "../support/free-port.ts";
import {
  BUN_ENTRY,
  buildIndex,
  DENO_ENTRY,
  type ServiceProcess,
  startService,
} from "../support/service-process.ts";

const LLM_TEXT = "Run the installer from a terminal [1].";
const services: ServiceProcess[] = [];
let indexPath = "";
let llm: ReturnType<typeof Bun.serve> | undefined;
/** The LLM call being held: resolves when it arrives; `release` lets the reply go. */
let held = { arrived: Promise.resolve(), release: () => {} };

const holdNextCall = () => {
  let arrive = () => {};
  let release = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  held = { arrived, release };
  return { arrive, released };
};
let gate = holdNextCall();

/** An OpenAI-compatible chat-completions endpoint that answers once released. */
const startSlowLlm = async () =>
  Bun.serve({
    hostname: "127.0.0.1",
    port: await freePort(),
    idleTimeout: 0,
    fetch: async (request) => {
      const body = (await request.json()) as { model?: string };
      const { arrive, released } = gate;
      arrive();
      await released;
      return Response.json({
        id: "chatcmpl-slow",
        object: "chat.completion",
        created: 1_700_000_000,
        model: body.model ?? "slow",
        choices: [{ index: 0, message: { role: "assistant", content: LLM_TEXT }, finish_reason: "stop" }],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
      });
    },
  });

/** Whether a fresh TCP connection to the port is accepted. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

beforeAll(async () => {
  llm = await startSlowLlm();
  indexPath = await buildIndex();
});
afterAll(async () => {
  held.release();
  await Promise.all(services.map((service) => service.dispose()));
  await llm?.stop(true);
  rmSync(dirname(indexPath), { recursive: true, force: true });
});

test.each([
  ["bun", BUN_ENTRY],
  ["deno", DENO_ENTRY],
])(
  "%s: SIGTERM mid-answer -> the answer completes with 200, new connections are refused, exit 0",
  async (_name, command) => {
    gate = holdNextCall();
    const running = await startService({
      command,
      readyTimeoutMs: 60_000,
      env: { INDEX_PATH: indexPath, LLM_API_KEY: "gsk_test_slow_key", LLM_BASE_URL: llm!.url.origin },
    });
    services.push(running);
    expect(await accepts(running.port)).toBe(true);
    const inFlight = fetch(`${running.url}/api/chat`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "How do I install Widgetron?" }),
    });
    await held.arrived; // the request is now inside the service, waiting on the LLM
    process.kill(running.pid, "SIGTERM");
    await waitFor(
      async () => running.logs().some((line) => line.msg === "shutting down"),
      10_000,
      "the 'shutting down' log line",
    );
    expect(running.logs().find((line) => line.msg === "shutting down")).toMatchObject({ signal: "SIGTERM" });
    expect(await accepts(running.port)).toBe(false);
    const exitedEarly = await Promise.race([
      running.exited.then(() => true),
      Bun.sleep(300).then(() => false),
    ]);
    expect(exitedEarly).toBe(false); // still waiting for the in-flight answer

    held.release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, response: LLM_TEXT });
    expect(body.sources.length).toBeGreaterThan(0);
    expect(await running.exited).toBe(0);
    expect(running.logs().at(-1)).toMatchObject({ level: "INFO", msg: "stopped" });
    // The in-flight request's access line (batched) was written before the process ended.
    expect(
      running
        .logs()
        .filter((line) => line.msg === "request" && line.path === "/api/chat" && line.status === 200),
    ).toHaveLength(1);
    expect(await accepts(running.port)).toBe(false);
  },
  90_000,
);
