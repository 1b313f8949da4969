/**
 * A JSON-RPC pass-through in front of a chain's RPC that counts every call by method, so a
 * benchmark can say how much of the operator's RPC plan a flood spent, whatever the service
 * itself reports. Batches count each call they carry.
 */
import { freePort } from "../../../test/support/free-port.ts";

export interface CountingRpcProxy {
  readonly url: string;
  /** Calls forwarded so far, by JSON-RPC method. */
  readonly calls: () => Readonly<Record<string, number>>;
  /** All calls forwarded so far. */
  readonly total: () => number;
  readonly stop: () => Promise<void>;
}

const methodsOf = (body: unknown): ReadonlyArray<string> =>
  (Array.isArray(body) ? body : [body]).map((call) =>
    typeof call === "object" && call !== null && typeof (call as { method?: unknown }).method === "string"
      ? (call as { method: string }).method
      : "(malformed)",
  );

export const startCountingRpcProxy = async (upstream: string): Promise<CountingRpcProxy> => {
  const counts: Record<string, number> = {};
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: await freePort(),
    fetch: async (request) => {
      const text = await request.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      for (const method of methodsOf(parsed)) counts[method] = (counts[method] ?? 0) + 1;
      const reply = await fetch(upstream, {
        method: request.method,
        headers: { "Content-Type": "application/json" },
        body: request.method === "POST" ? text : undefined,
      });
      return new Response(reply.body, { status: reply.status, headers: reply.headers });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    calls: () => ({ ...counts }),
    total: () => Object.values(counts).reduce((sum, n) => sum + n, 0),
    stop: () => server.stop(true),
  };
};
