/**
 * The project's own tiny reverse proxy, for tests and benchmarks of several instances: it
 * spreads requests round-robin over `upstreams` and appends the client's address to
 * X-Forwarded-For as nginx's `$proxy_add_x_forwarded_for` does. A client address given in
 * the incoming X-Forwarded-For (tests use it to be many clients from one machine) is kept in
 * front, so a service trusting the loopback proxy sees it as the client.
 */
import { freePort } from "./free-port.ts";

export interface TinyProxy {
  readonly url: string;
  /** Requests sent to each upstream so far. */
  readonly counts: ReadonlyArray<number>;
  readonly stop: () => Promise<void>;
}

export const startTinyProxy = async (upstreams: ReadonlyArray<string>): Promise<TinyProxy> => {
  const counts = upstreams.map(() => 0);
  let next = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: await freePort(),
    fetch: async (request, srv) => {
      const index = next++ % upstreams.length;
      counts[index] = (counts[index] ?? 0) + 1;
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      const peer = srv.requestIP(request)?.address ?? "127.0.0.1";
      const forwarded = headers.get("x-forwarded-for");
      headers.set("x-forwarded-for", forwarded === null ? peer : `${forwarded}, ${peer}`);
      headers.delete("host");
      const upstream = await fetch(`${upstreams[index]}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
        redirect: "manual",
      });
      return new Response(upstream.body, { status: upstream.status, headers: upstream.headers });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, counts, stop: () => server.stop(true) };
};
