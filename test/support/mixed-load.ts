/**
 * A bounded load of the service's stateful endpoints for fault tests: a few workers send status,
 * payment-info and chat requests (each from one of a set of client addresses, passed in
 * X-Forwarded-For to a service that trusts the loopback proxy) and submit each prepared
 * payment once, until `stop()`. Every response is recorded with its status, time and
 * Retry-After, so a test can say what the clients saw while it broke something.
 */
export interface Observed {
  readonly kind: "status" | "info" | "chat" | "payment";
  readonly client: string;
  readonly status: number;
  readonly ms: number;
  readonly retryAfter: string | null;
  /** The JSON body's `code`, when there is one. */
  readonly code: string | undefined;
  /** For payments: the signature submitted. */
  readonly signature?: string;
}

export interface PreparedPayment {
  readonly client: string;
  readonly signature: string;
  readonly amount: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly chatClients: ReadonlyArray<string>;
  readonly payments: ReadonlyArray<PreparedPayment>;
  readonly workers?: number;
  /** At most one payment submission per this many ms (default: as fast as the workers go). */
  readonly paymentEveryMs?: number;
  /** A network failure (the service killed) is recorded as status 0. */
  readonly timeoutMs?: number;
}

/** POST or GET `path` as `client`; the response as observed. */
export const send = async (
  url: string,
  path: string,
  client: string,
  body?: unknown,
  timeoutMs = 10_000,
): Promise<Omit<Observed, "kind" | "client">> => {
  const started = performance.now();
  try {
    const res = await fetch(`${url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": client },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const code = text.startsWith("{") ? (JSON.parse(text) as { code?: string }).code : undefined;
    return {
      status: res.status,
      ms: performance.now() - started,
      retryAfter: res.headers.get("retry-after"),
      code,
    };
  } catch {
    return { status: 0, ms: performance.now() - started, retryAfter: null, code: undefined };
  }
};

/** Starts the load; `stop()` ends it and resolves to everything observed. */
export const startMixedLoad = (options: LoadOptions) => {
  const observed: Observed[] = [];
  const queue = [...options.payments];
  let running = true;
  let turn = 0;
  let lastPayment = 0;
  const paymentDue = () => {
    if (queue.length === 0 || performance.now() - lastPayment < (options.paymentEveryMs ?? 0)) return false;
    lastPayment = performance.now();
    return true;
  };
  const worker = async () => {
    while (running) {
      const pick = turn++ % 4;
      const client = options.chatClients[Math.floor(turn / 4) % options.chatClients.length] ?? "10.1.0.1";
      if (pick === 3 && paymentDue()) {
        const payment = queue.shift()!;
        const body = { signature: payment.signature, amount: payment.amount, token: "USDC" };
        const seen = await send(options.url, "/api/payment", payment.client, body, options.timeoutMs);
        observed.push({ kind: "payment", client: payment.client, signature: payment.signature, ...seen });
      } else if (pick === 2) {
        const seen = await send(
          options.url,
          "/api/chat",
          client,
          { message: "How do I install Widgetron?" },
          options.timeoutMs,
        );
        observed.push({ kind: "chat", client, ...seen });
      } else {
        const path = pick === 1 ? "/api/payment/info" : "/api/status";
        const seen = await send(options.url, path, client, undefined, options.timeoutMs);
        observed.push({ kind: pick === 1 ? "info" : "status", client, ...seen });
      }
    }
  };
  const workers = Array.from({ length: options.workers ?? 6 }, worker);
  return {
    observed,
    stop: async (): Promise<ReadonlyArray<Observed>> => {
      running = false;
      await Promise.all(workers);
      return observed;
    },
  };
};

/**
 * `count` real USDC transfers of 0.01 to the service, each from its own client address 10.0.0.<n>
 * and its own wallet (credits follow the paying wallet, so one wallet per client keeps each
 * client's count its own).
 */
export const preparePayments = async <Payer>(
  chain: {
    readonly sendUsdc: (send: { readonly units: bigint; readonly from: Payer }) => Promise<string>;
    readonly fundPayer: () => Promise<Payer>;
  },
  count: number,
): Promise<PreparedPayment[]> => {
  const payments: PreparedPayment[] = [];
  for (let i = 0; i < count; i++)
    payments.push({
      client: `10.0.0.${i + 1}`,
      signature: await chain.sendUsdc({ units: 10_000n, from: await chain.fundPayer() }),
      amount: 0.01,
    });
  return payments;
};

/** The `remaining` a client (passed through X-Forwarded-For) sees on GET /api/status. */
export const remainingOf = async (url: string, client: string): Promise<number> => {
  const res = await fetch(`${url}/api/status`, { headers: { "X-Forwarded-For": client } });
  return (await res.json()).remaining as number;
};

/** Variables of a service under a load test: clients named by X-Forwarded-For, no protection limit in the way. */
export const loadTestEnv = (freeQueries: number) => ({
  TRUST_PROXY: "loopback",
  RATE_LIMIT_FREE_QUERIES: String(freeQueries),
  PROTECTION_RATE_LIMIT: "100000",
});
