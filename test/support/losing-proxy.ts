/**
 * A loopback pass-through to a service that loses the first paid response after the service
 * answered it (and settled), as a load balancer whose upstream connection dropped does: for the
 * tests of clients that must resend the same payment and be charged once. `paidSends` counts the
 * paid requests that reached the service.
 */
export interface LosingProxy {
  readonly port: number;
  readonly paidSends: () => number;
  readonly stop: () => Promise<void>;
}

export const startLosingProxy = (options: {
  readonly upstream: string;
  /** Whether a request carries a payment. */
  readonly isPaid: (request: Request, body: string | undefined) => boolean;
  /** What the client gets instead of the first paid response (its body already read). */
  readonly lost: () => Response;
}): LosingProxy => {
  let paid = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      const url = new URL(request.url);
      const body = request.method === "POST" ? await request.text() : undefined;
      const headers = new Headers(request.headers);
      headers.delete("host");
      const response = await fetch(`${options.upstream}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      if (!options.isPaid(request, body)) return response;
      paid += 1;
      if (paid > 1) return response;
      await response.arrayBuffer();
      return options.lost();
    },
  });
  return { port: server.port as number, paidSends: () => paid, stop: () => server.stop(true) };
};
