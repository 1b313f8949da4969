/**
 * A real redis-server (Debian's package) on a free loopback port, with AOF fsynced on every
 * write and no RDB snapshots, in its own temp dir so a restart reloads exactly what was
 * acknowledged. In CI a missing redis-server is an error; locally the tests skip, loudly.
 */
import { describe, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis, type RedisOptions } from "ioredis";
import { freePort, waitFor } from "./free-port.ts";

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** Stops the server (data stays on disk); commands fail until `up`. SIGKILL: a crash, nothing flushed. */
  readonly down: (signal?: "SIGTERM" | "SIGKILL") => Promise<void>;
  /** Starts it again on the same port and dir. */
  readonly up: () => Promise<void>;
  /** down + up: the server reloads its append-only file. */
  readonly restart: () => Promise<void>;
  /** Stops it for good and deletes its dir. */
  readonly stop: () => Promise<void>;
}

/** Whether redis-server can be run here; throws in CI, where it is required. */
export const redisServerAvailable = (): boolean => {
  if (Bun.which("redis-server") !== null) return true;
  if (process.env.CI) throw new Error("redis-server is required in CI: apt-get install -y redis-server");
  console.warn(
    "\n!!! redis-server not found: SKIPPING the Redis store tests. Install it: apt-get install -y redis-server\n",
  );
  return false;
};

/** What a suite that needs redis-server does here: run; fail (CI, where it is required); or skip, by name. */
export const redisVerdict = (found: boolean, ci: string | undefined): "run" | "fail" | "skip" =>
  found ? "run" : ci !== undefined && ci !== "" ? "fail" : "skip";

/**
 * A describe whose tests need redis-server. Without it, in CI the suite is one failing test
 * that says so (a named (fail), not an error between tests that a reader of the tail may miss);
 * elsewhere its tests are listed as skipped, with a warning, never as passed.
 */
export const describeWithRedis = (name: string, body: () => void): void => {
  const verdict = redisVerdict(Bun.which("redis-server") !== null, process.env.CI);
  if (verdict === "run") describe(name, body);
  else if (verdict === "fail")
    describe(name, () => {
      test("redis-server is installed (required in CI)", () => {
        throw new Error("redis-server is required in CI: apt-get install -y redis-server");
      });
    });
  else {
    console.warn(
      `\n!!! redis-server not found: SKIPPING "${name}". Install it: apt-get install -y redis-server\n`,
    );
    describe.skip(name, body);
  }
};

/**
 * A plain client for a test to read or plant data. It listens for errors, so a server stopped
 * on purpose does not make ioredis print "Unhandled error event" on every reconnect attempt;
 * the test still sees each failure as a rejected command. Disconnect it when done.
 */
export const rawClient = (url: string, options: RedisOptions = {}): Redis => {
  const client = new Redis(url, options);
  client.on("error", () => undefined);
  return client;
};

const answersPing = async (url: string): Promise<boolean> => {
  const client = rawClient(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } finally {
    client.disconnect();
  }
};

/** Starts redis-server; `password` turns on AUTH (the URL then carries it); `args` are extra server flags. */
export const startRedisServer = async (
  options: { readonly password?: string; readonly args?: ReadonlyArray<string> } = {},
): Promise<RedisServer> => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "redis-test-"));
  const auth = options.password === undefined ? [] : ["--requirepass", options.password];
  const url =
    options.password === undefined
      ? `redis://127.0.0.1:${port}`
      : `redis://:${encodeURIComponent(options.password)}@127.0.0.1:${port}`;
  const args = [
    "redis-server",
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "yes",
    "--appendfsync",
    "always",
    "--dir",
    dir,
    ...auth,
    ...(options.args ?? []),
  ];
  let child: ReturnType<typeof Bun.spawn> | undefined;
  const up = async () => {
    child = Bun.spawn(args, { stdout: "ignore", stderr: "ignore" });
    await waitFor(() => answersPing(url), 10_000, `redis-server on port ${port}`);
  };
  const down = async (signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
    const running = child;
    child = undefined;
    if (running === undefined) return;
    running.kill(signal);
    await running.exited;
  };
  await up();
  return {
    url,
    port,
    dir,
    down,
    up,
    restart: async () => {
      await down("SIGTERM");
      await up();
    },
    stop: async () => {
      await down("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
