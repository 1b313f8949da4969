/**
 * One question put to the running service exactly as the widget would (POST /api/chat, JSON),
 * from its own identity: the service is started with TRUST_PROXY=loopback and each question
 * carries its own X-Forwarded-For address, so every question is a first question of the day.
 */

export interface ChatReply {
  readonly status: number;
  readonly latencyMs: number;
  readonly answer: string;
  /** Source paths in citation order. */
  readonly sources: ReadonlyArray<string>;
  readonly declined: boolean;
  /** Queries left after the answer (undefined when the reply had no rateLimit). */
  readonly remaining: number | undefined;
}

/** A distinct client address per question number, in the benchmarking range 198.18.0.0/15. */
export const identityAddress = (n: number): string =>
  `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;

interface ChatBody {
  readonly response?: unknown;
  readonly sources?: ReadonlyArray<{ readonly source?: unknown }>;
  readonly declined?: unknown;
  readonly rateLimit?: { readonly remaining?: unknown };
}

/** Asks `message` as client number `client`; latency is the whole round trip. */
export const ask = async (baseUrl: string, message: string, client: number): Promise<ChatReply> => {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": identityAddress(client) },
    body: JSON.stringify({ message }),
  });
  const body = (await response.json()) as ChatBody;
  const latencyMs = performance.now() - started;
  const remaining = body.rateLimit?.remaining;
  return {
    status: response.status,
    latencyMs,
    answer: typeof body.response === "string" ? body.response : "",
    sources: (body.sources ?? []).map((source) => (typeof source.source === "string" ? source.source : "")),
    declined: body.declined === true,
    remaining: typeof remaining === "number" ? remaining : undefined,
  };
};

/** The free questions a new client has (GET /api/status as a client that never asked). */
export const freeQuestions = async (baseUrl: string, client: number): Promise<number> => {
  const response = await fetch(`${baseUrl}/api/status`, {
    headers: { "X-Forwarded-For": identityAddress(client) },
  });
  const body = (await response.json()) as { readonly remaining?: unknown };
  if (typeof body.remaining !== "number")
    throw new Error(`GET /api/status gave no remaining: ${JSON.stringify(body)}`);
  return body.remaining;
};
