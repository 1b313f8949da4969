/** The service's HTTP API as the widget uses it. */

import type { HeldSession, SessionStore } from "./sign-in/wallet-session.ts";
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

/** What GET /api/status says: the rate limit, and the wallet whose paid questions are spent first. */
export interface Standing {
  readonly rateLimit: RateLimit;
  readonly wallet?: string | undefined;
}

/** The sign-in-with-x challenge of GET /api/session/challenge. */
export interface SignInChallenge {
  readonly info: {
    readonly domain: string;
    readonly uri: string;
    readonly version: string;
    readonly nonce: string;
    readonly issuedAt: string;
    readonly expirationTime: string;
    readonly statement: string;
    readonly resources: ReadonlyArray<string>;
  };
  readonly supportedChains: ReadonlyArray<{ readonly chainId: string; readonly type: string }>;
}

/** A session the service refused: the widget forgets it. */
const REVOKED = new Set(["SESSION_UNKNOWN", "SESSION_REVOKED"]);

/**
 * The browser's language tag, sent so that a question in another language than the docs' is
 * told so in it; left out when the browser gives none the service would accept.
 */
const browserLocale = (): string | undefined => {
  const tag = typeof navigator === "undefined" ? undefined : navigator.language;
  return tag !== undefined && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}$/.test(tag) ? tag : undefined;
};

export const makeApi = (root: string, sessions: SessionStore) => ({
  root,
  status: async (): Promise<Standing | undefined> => {
    const res = await fetch(`${root}/api/status`, { headers: sessions.headers() }).catch(() => undefined);
    if (res?.status === 401) {
      sessions.clear();
      return makeApi(root, sessions).status();
    }
    return res?.ok ? ((await res.json()) as Standing) : undefined;
  },

  /** Streams one answer into `on`; resolves when it ended (aborted included). */
  chat: async (message: string, conversationId: string, on: ChatEvents, signal: AbortSignal) => {
    const res = await postJson(
      `${root}/api/chat`,
      { message, conversationId, stream: true, locale: browserLocale() },
      { headers: { Accept: "text/event-stream", ...sessions.headers() }, signal },
    ).catch(() => undefined);
    if (res === undefined) return signal.aborted ? undefined : on.failed(NETWORK_ERROR);
    if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream") || res.body === null) {
      const body = await res.json().catch(() => ({}));
      if (res.status === 401 && REVOKED.has(body.code)) sessions.clear();
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
    /** The claim's Idempotency-Key, the same on every retry: a resend after a lost answer gets its grant back. */
    claimKey: string,
  ): Promise<{ ok: true; granted: number; rateLimit: RateLimit } | { ok: false; error: ServiceError }> => {
    const res = await postJson(
      `${root}/api/payment`,
      { signature, amount, token: "USDC" },
      { headers: { "Idempotency-Key": claimKey } },
    ).catch(() => undefined);
    if (res === undefined) return { ok: false, error: { ...NETWORK_ERROR, retryable: true } };
    const body = await res.json().catch(() => ({}));
    if (res.ok) {
      // A transfer made in this page (it carries our memo) comes with a session for the wallet.
      if (body.session !== undefined && typeof body.wallet === "string")
        sessions.save({ ...body.session, wallet: body.wallet });
      return { ok: true, granted: body.queriesGranted, rateLimit: body.rateLimit };
    }
    // 503 (RPC down) keeps the transfer claimable: retry like "not confirmed".
    const error = asServiceError(res.status, body);
    return { ok: false, error: res.status === 503 ? { ...error, retryable: true } : error };
  },

  /** A fresh Sign-In With Solana challenge. */
  challenge: async (): Promise<SignInChallenge | ServiceError> => {
    const res = await fetch(`${root}/api/session/challenge`).catch(() => undefined);
    if (res === undefined) return NETWORK_ERROR;
    const body = await res.json().catch(() => ({}));
    return res.ok ? (body as SignInChallenge) : asServiceError(res.status, body);
  },

  /** Signs in with a signed proof; the session is kept for this docs site. */
  signIn: async (proof: Record<string, unknown>): Promise<Standing | ServiceError> => {
    const res = await postJson(`${root}/api/session`, { proof }).catch(() => undefined);
    if (res === undefined) return NETWORK_ERROR;
    const body = await res.json().catch(() => ({}));
    if (!res.ok) return asServiceError(res.status, body);
    const held: HeldSession = { ...body.session, wallet: body.wallet };
    sessions.save(held);
    return { rateLimit: body.rateLimit, wallet: body.wallet };
  },

  /** Revokes the held session at the service and forgets it here. */
  signOut: async () => {
    const headers = sessions.headers();
    sessions.clear();
    await fetch(`${root}/api/session/sign-out`, { method: "POST", headers }).catch(() => undefined);
  },
});

export type Api = ReturnType<typeof makeApi>;
