/** The service's HTTP API as the widget uses it. */
import { readServerEvents } from "./sse.ts";

export interface RateLimit {
  readonly remaining: number;
  readonly resetAt: number;
  readonly requiresPayment: boolean;
  readonly free?: number;
  readonly paid?: number;
}

export interface Source {
  readonly number: number;
  readonly title: string;
  readonly url?: string | undefined;
  readonly source: string;
  readonly heading?: string | undefined;
}

/** The `payment` part of a 402 (the body of GET /api/payment/info). */
export interface PaymentInfo {
  readonly network: string;
  readonly recipient: string;
  readonly usdcMint: string;
  readonly memo: string;
  readonly amounts: ReadonlyArray<number>;
  readonly pricePerQuery: string;
}

/** An error reply: the spec's `error` and `details`, our `code`, and whether to retry. */
export interface ServiceError {
  readonly status: number;
  readonly error: string;
  readonly code: string;
  readonly details?: string;
  readonly retryable?: boolean;
}

export type ChatEvents = {
  readonly sources: (sources: ReadonlyArray<Source>) => void;
  readonly delta: (text: string) => void;
  readonly done: (done: { readonly answerId?: string; readonly rateLimit?: RateLimit }) => void;
  readonly failed: (error: ServiceError) => void;
  readonly paymentRequired: (payment: PaymentInfo, rateLimit: RateLimit) => void;
};

const NETWORK_ERROR: ServiceError = {
  status: 0,
  error: "The assistant cannot be reached. Check your connection and try again.",
  code: "NETWORK",
};

const asServiceError = (status: number, body: unknown): ServiceError => {
  const reply = (typeof body === "object" && body !== null ? body : {}) as Partial<ServiceError>;
  return {
    status,
    error: typeof reply.error === "string" ? reply.error : `The service answered ${status}`,
    code: typeof reply.code === "string" ? reply.code : "HTTP_ERROR",
    details: typeof reply.details === "string" ? reply.details : undefined,
    retryable: reply.retryable === true,
  };
};

const postJson = (url: string, body: unknown, init: RequestInit = {}) =>
  fetch(url, {
    ...init,
    method: "POST",
    headers: { "Content-Type": "application/json", ...init.headers },
    body: JSON.stringify(body),
  });

export const makeApi = (root: string) => ({
  root,
  status: async (): Promise<RateLimit | undefined> => {
    const res = await fetch(`${root}/api/status`).catch(() => undefined);
    return res?.ok ? ((await res.json()) as { rateLimit: RateLimit }).rateLimit : undefined;
  },

  /** Streams one answer into `on`; resolves when it ended (aborted included). */
  chat: async (message: string, conversationId: string, on: ChatEvents, signal: AbortSignal) => {
    const res = await postJson(
      `${root}/api/chat`,
      { message, conversationId, stream: true },
      { headers: { Accept: "text/event-stream" }, signal },
    ).catch(() => undefined);
    if (res === undefined) return signal.aborted ? undefined : on.failed(NETWORK_ERROR);
    if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream") || res.body === null) {
      const body = await res.json().catch(() => ({}));
      if (res.status === 402 && body.payment) return on.paymentRequired(body.payment, body.rateLimit);
      return on.failed(asServiceError(res.status, body));
    }
    try {
      await readServerEvents(res.body, ({ event, data }) => {
        const payload = JSON.parse(data);
        if (event === "sources") on.sources(payload.sources ?? []);
        else if (event === "delta") on.delta(String(payload.text ?? ""));
        else if (event === "done") on.done(payload);
        else if (event === "error") on.failed(asServiceError(500, payload));
      });
    } catch (cause) {
      if (!signal.aborted)
        on.failed({ ...NETWORK_ERROR, error: `The answer was cut off (${String(cause)}).` });
    }
  },

  feedback: (answerId: string, vote: "up" | "down") =>
    postJson(`${root}/api/feedback`, { answerId, vote }).then(
      (res) => res.ok,
      () => false,
    ),

  /** POST /api/payment: the rateLimit after the grant, or the service's error. */
  submitPayment: async (
    signature: string,
    amount: number,
  ): Promise<{ ok: true; granted: number; rateLimit: RateLimit } | { ok: false; error: ServiceError }> => {
    const res = await postJson(`${root}/api/payment`, { signature, amount, token: "USDC" }).catch(
      () => undefined,
    );
    if (res === undefined) return { ok: false, error: { ...NETWORK_ERROR, retryable: true } };
    const body = await res.json().catch(() => ({}));
    if (res.ok) return { ok: true, granted: body.queriesGranted, rateLimit: body.rateLimit };
    // 503 (RPC down) keeps the transfer claimable: retry like "not confirmed".
    const error = asServiceError(res.status, body);
    return { ok: false, error: res.status === 503 ? { ...error, retryable: true } : error };
  },
});

export type Api = ReturnType<typeof makeApi>;
