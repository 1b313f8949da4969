/**
 * Starts the real Chroma server shipped in the chromadb package (`chroma run`) on a free
 * loopback port with its data in a fresh temp folder, for tests and benchmarks. `stop` ends
 * that one process (by its pid) and deletes the folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, waitFor } from "./free-port.ts";

export interface LocalChroma {
  readonly url: string;
  /** Ends the server process; its data stays, for `up`. */
  readonly down: () => Promise<void>;
  /** Starts it again on the same port and data. */
  readonly up: () => Promise<void>;
  /** Ends it and deletes its data. */
  readonly stop: () => Promise<void>;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((done) => child.once("exit", () => done()));

const CHROMA = fileURLToPath(new URL("../../node_modules/.bin/chroma", import.meta.url));

/** Starts `chroma run` and waits (up to 30 s) for its heartbeat. */
export const startLocalChroma = async (): Promise<LocalChroma> => {
  const folder = mkdtempSync(join(tmpdir(), "chroma-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let errors = "";
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const down = async () => {
    const current = child;
    if (current === undefined) return;
    if (running()) current.kill("SIGTERM");
    await Promise.race([exited(current), new Promise((done) => setTimeout(done, 5000))]);
    if (running()) current.kill("SIGKILL");
    await exited(current);
    child = undefined;
  };
  const stop = async () => {
    await down();
    rmSync(folder, { recursive: true, force: true });
  };
  const heartbeat = () => fetch(`${url}/api/v2/heartbeat`).then((response) => response.ok);
  const up = async () => {
    errors = "";
    child = spawn(CHROMA, ["run", "--path", folder, "--port", String(port), "--host", "127.0.0.1"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (data: Buffer) => {
      errors = (errors + data.toString()).slice(-2000);
    });
    // Stops waiting early when the process has exited; it started only if it is still running.
    const started = await waitFor(
      async () => !running() || (await heartbeat()),
      30_000,
      `chroma heartbeat on ${url}`,
    ).then(
      () => running(),
      () => false,
    );
    if (!started) throw new Error(`chroma run did not start on ${url}: ${errors.trim() || "no output"}`);
  };
  try {
    await up();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, down, up, stop };
};
