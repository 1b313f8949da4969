/**
 * The real service as a child process (`bun src/main.ts`, or the Deno entry) on a free port,
 * with exactly the env given (plus PATH/HOME), ready once /healthz answers. Its stdout JSON
 * log lines and its raw output are captured; it can be stopped (SIGTERM), killed (SIGKILL)
 * and restarted on the same port, cwd and env.
 *
 *   const service = await startService({ env: { INDEX_PATH: index } }); // afterAll(() => service.kill())
 *   await fetch(`${service.url}/api/status`);
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as Effect from "effect/Effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { indexLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { freePort } from "./free-port.ts";
import { type LogLine, outputCollector } from "./output-collector.ts";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** `npm start` (`bun dev/demo/main.ts`: the service, with the local demo chain when none is configured), run by the Bun running the tests. */
export const BUN_ENTRY: ReadonlyArray<string> = [process.execPath, join(REPO_ROOT, "dev/demo/main.ts")];
/** A shell's variable assignment before a command (`MALLOC_ARENA_MAX=2 deno run ...`). */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/**
 * The words of a package.json script, with its first word resolved in node_modules/.bin; variables
 * the script sets before its command are set through env(1), which execs the command (same pid).
 */
export const npmScript = (name: string): ReadonlyArray<string> => {
  const scripts = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts as Record<
    string,
    string
  >;
  const words = (scripts[name] ?? "").split(" ");
  const assignments = words.slice(
    0,
    words.findIndex((word) => !ASSIGNMENT.test(word)),
  );
  const [program = "", ...args] = words.slice(assignments.length);
  return [
    ...(assignments.length === 0 ? [] : ["env", ...assignments]),
    join(REPO_ROOT, "node_modules/.bin", program),
    ...args.map((arg) => (arg.startsWith("src/") || arg.startsWith("dev/") ? join(REPO_ROOT, arg) : arg)),
  ];
};

/** `npm run start:deno`: the Deno entry with the `deno` npm package, exactly as package.json runs it. */
export const DENO_ENTRY: ReadonlyArray<string> = npmScript("start:deno");

export interface ServiceOptions {
  /** Service variables; the parent's env is NOT inherited beyond PATH/HOME. PORT is the free port found (a given PORT wins: only for start-up failures). */
  readonly env?: Readonly<Record<string, string>>;
  /** Working dir (where .data/ goes); default a fresh temp dir. */
  readonly cwd?: string;
  /** The command to run; default BUN_ENTRY. */
  readonly command?: ReadonlyArray<string>;
  readonly readyTimeoutMs?: number;
  /** The path that answers 200 once the process is ready (default /healthz). */
  readonly readyPath?: string;
  /**
   * Keep only the last `outputTail` characters of the output and parse no log lines: for long
   * runs (benchmarks), whose access log would otherwise fill the harness's memory. Default:
   * everything is kept (tests that read every line, like the secrets test).
   */
  readonly outputTail?: number;
}

export type { LogLine } from "./output-collector.ts";

export interface ServiceProcess {
  /** http://127.0.0.1:<port> (no trailing slash). */
  readonly url: string;
  /** GET `path`, or POST `body` as JSON when given. */
  readonly call: (path: string, body?: unknown) => Promise<Response>;
  readonly port: number;
  readonly pid: number;
  readonly cwd: string;
  /** Parsed JSON lines of stdout so far (throws when started with `outputTail`: none are kept). */
  readonly logs: () => ReadonlyArray<LogLine>;
  /** stdout and stderr so far, interleaved by arrival (only the tail with `outputTail`). */
  readonly output: () => string;
  /** Exit code (a signal death counts as 128 + signal number). */
  readonly exited: Promise<number>;
  /** SIGTERM, then waits for the exit code. */
  readonly stop: () => Promise<number>;
  /** SIGKILL, then waits for the exit code. */
  readonly kill: () => Promise<number>;
  /** Kills the process if still running, then starts it again with the same port, cwd and env. */
  readonly restart: () => Promise<ServiceProcess>;
  /** SIGKILL, then deletes the working dir if this helper made it (for afterAll). */
  readonly dispose: () => Promise<void>;
}

interface Spawned {
  readonly proc: ReturnType<typeof Bun.spawn>;
  readonly logs: () => ReadonlyArray<LogLine>;
  readonly output: () => string;
  readonly exited: Promise<number>;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGTERM: 15, SIGKILL: 9, SIGINT: 2 };

/** Only what a process needs to run: the service must see no variable the test did not give it. */
const childEnv = (env: Readonly<Record<string, string>>, port: number) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? tmpdir(),
  NO_COLOR: "1",
  PORT: String(port),
  ...env,
});

const drain = async (stream: ReadableStream<Uint8Array>, onText: (text: string) => void) => {
  const decoder = new TextDecoder();
  for await (const bytes of stream) onText(decoder.decode(bytes, { stream: true }));
};

const spawn = (
  command: ReadonlyArray<string>,
  cwd: string,
  env: Record<string, string>,
  tail?: number,
): Spawned => {
  const proc = Bun.spawn([...command], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const collected = outputCollector(tail);
  const streams = Promise.all([
    drain(proc.stdout as ReadableStream<Uint8Array>, collected.onStdout),
    drain(proc.stderr as ReadableStream<Uint8Array>, collected.onStderr),
  ]);
  const exited = proc.exited.then(async (code) => {
    await streams.catch(() => undefined);
    return proc.signalCode === null ? code : 128 + (SIGNAL_NUMBERS[proc.signalCode] ?? 0);
  });
  return { proc, logs: collected.logs, output: collected.output, exited };
};

/** Runs the service command to its exit (for start-up failures): exit code and all output. */
export const runToExit = async (
  options: ServiceOptions & { readonly timeoutMs?: number },
): Promise<{ code: number; output: string; logs: ReadonlyArray<LogLine> }> => {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "service-"));
  const child = spawn(options.command ?? BUN_ENTRY, cwd, childEnv(options.env ?? {}, await freePort()));
  const timer = setTimeout(() => child.proc.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  const code = await child.exited;
  clearTimeout(timer);
  if (options.cwd === undefined) rmSync(cwd, { recursive: true, force: true });
  return { code, output: child.output(), logs: child.logs() };
};

const launch = async (
  options: ServiceOptions,
  port: number,
  cwd: string,
  ownsCwd: boolean,
): Promise<ServiceProcess> => {
  const command = options.command ?? BUN_ENTRY;
  const child = spawn(command, cwd, childEnv(options.env ?? {}, port), options.outputTail);
  const url = `http://127.0.0.1:${port}`;
  let exitCode: number | undefined;
  void child.exited.then((code) => {
    exitCode = code;
  });
  // Polls the ready path, but gives up at once when the process dies (a config error, a port clash).
  const deadline = performance.now() + (options.readyTimeoutMs ?? 30_000);
  let ready = false;
  while (!ready && exitCode === undefined && performance.now() < deadline) {
    ready = await fetch(`${url}${options.readyPath ?? "/healthz"}`).then(
      (res) => res.ok,
      () => false,
    );
    if (!ready) await Bun.sleep(50);
  }
  if (!ready || exitCode !== undefined) {
    child.proc.kill("SIGKILL");
    const code = await child.exited;
    throw new Error(
      `${command.join(" ")} did not become ready on port ${port} (exit ${code}):\n${child.output()}`,
    );
  }
  const signal = async (name: "SIGTERM" | "SIGKILL") => {
    if (exitCode === undefined) child.proc.kill(name);
    return child.exited;
  };
  return {
    url,
    call: (path, body) =>
      fetch(`${url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    port,
    pid: child.proc.pid,
    cwd,
    logs: child.logs,
    output: child.output,
    exited: child.exited,
    stop: () => signal("SIGTERM"),
    kill: () => signal("SIGKILL"),
    restart: async () => {
      await signal("SIGKILL");
      return launch(options, port, cwd, ownsCwd);
    },
    dispose: async () => {
      await signal("SIGKILL");
      if (ownsCwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
};

/** Starts the service on a free port and waits until /healthz answers 200. */
export const startService = async (options: ServiceOptions = {}): Promise<ServiceProcess> =>
  launch(
    options,
    await freePort(),
    options.cwd ?? mkdtempSync(join(tmpdir(), "service-")),
    options.cwd === undefined,
  );

/** The small Widgetron docs site of the fixtures. */
export const FIXTURE_DOCS = join(REPO_ROOT, "test/fixtures/docs/site");

/** Ingests `docs` into a new local index (hashed vectors) in a temp dir; returns its path for INDEX_PATH (delete its dir after). */
export const buildIndex = async (docs: string = FIXTURE_DOCS, baseUrl?: string): Promise<string> => {
  const indexPath = join(mkdtempSync(join(tmpdir(), "service-index-")), "index.bin");
  await Effect.runPromise(
    ingest([docs], { baseUrl }).pipe(
      Effect.provide(withSettings(defaultConfig({ vector: { kind: "local", indexPath } }), indexLayer())),
    ),
  );
  return indexPath;
};

/** `bun <script> ...args` run in `service`'s folder with PORT set to its port: exit code, stdout (trimmed) and stderr. */
export const runCli = async (
  service: Pick<ServiceProcess, "cwd" | "port">,
  script: string,
  args: ReadonlyArray<string>,
  port = service.port,
) => {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, script), ...args], {
    cwd: service.cwd,
    env: { PATH: process.env.PATH ?? "", PORT: String(port) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr };
};
