/**
 * Starts the real Chroma server shipped in the chromadb package (`chroma run`) on a free
 * loopback port with its data in a fresh temp folder, for tests and benchmarks. `stop` ends
 * that one process (by its pid) and deletes the folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface LocalChroma {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((done, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((done) => child.once("exit", () => done()));

/** Starts `chroma run` and waits (up to `timeoutMs`) for its heartbeat. */
export const startLocalChroma = async (
  options: { readonly binary?: string; readonly timeoutMs?: number } = {},
): Promise<LocalChroma> => {
  const binary = options.binary ?? fileURLToPath(new URL("../../node_modules/.bin/chroma", import.meta.url));
  const folder = mkdtempSync(join(tmpdir(), "chroma-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ["run", "--path", folder, "--port", String(port), "--host", "127.0.0.1"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (data: Buffer) => {
    errors = (errors + data.toString()).slice(-2000);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await Promise.race([exited(child), new Promise((done) => setTimeout(done, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(folder, { recursive: true, force: true });
  };
  const deadline = performance.now() + (options.timeoutMs ?? 30_000);
  while (performance.now() < deadline) {
    if (child.exitCode !== null) break;
    const alive = await fetch(`${url}/api/v2/heartbeat`).then(
      (response) => response.ok,
      () => false,
    );
    if (alive) return { url, stop };
    await new Promise((done) => setTimeout(done, 100));
  }
  await stop();
  throw new Error(`chroma run did not start on ${url}: ${errors.trim() || "no output"}`);
};
