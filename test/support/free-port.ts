import { createServer } from "node:net";

/** A free TCP port on 127.0.0.1, found by binding port 0 and closing again. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

/** Polls `probe` until it resolves true or `timeoutMs` passes. */
export const waitFor = async (
  probe: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> => {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await Bun.sleep(50);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
};
