/**
 * A loopback server speaking Groq's OpenAI-compatible chat-completions protocol, so tests
 * drive the real groq-sdk client: JSON replies with `usage`, SSE streams whose final chunk
 * carries `x_groq.usage` (or top-level `usage`), then `data: [DONE]`, and scripted failures.
 * Every request is recorded for assertions.
 */
import { freePort } from "./free-port.ts";

export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export type FakeReply =
  /** A normal answer: JSON or SSE, whichever the request asked for. */
  | {
      readonly kind: "answer";
      readonly text: string;
      readonly usage?: FakeUsage | undefined;
      /** Where a stream reports usage. Default "x_groq", as Groq does. */
      readonly streamUsage?: "x_groq" | "top-level" | "none";
    }
  | { readonly kind: "status"; readonly status: number; readonly headers?: Record<string, string> }
  /** 200 with a body that is not JSON (for a stream: a data line that is not JSON). */
  | { readonly kind: "malformed" }
  /** 200 JSON that is not a chat completion. */
  | { readonly kind: "wrong-shape" }
  /** Never answers (until the client gives up). */
  | { readonly kind: "hang" }
  /** Streams these deltas, then goes silent. */
  | { readonly kind: "stall-mid-stream"; readonly deltas: ReadonlyArray<string> }
  /** Streams these deltas, then an error event. */
  | { readonly kind: "error-mid-stream"; readonly deltas: ReadonlyArray<string> };

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | null;
  /** Parsed JSON body, or the raw text when it did not parse. */
  readonly body: unknown;
}

export interface FakeGroq {
  /** Pass as the SDK's baseURL (it appends /openai/v1/...). */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly requests: ReadonlyArray<RecordedRequest>;
  /** Queues replies for the next requests; when the queue is empty `DEFAULT_REPLY` is used. */
  readonly script: (...replies: ReadonlyArray<FakeReply>) => void;
  readonly reset: () => void;
  readonly stop: () => Promise<void>;
}

export const CHAT_PATH = "/openai/v1/chat/completions";
export const DEFAULT_USAGE: FakeUsage = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };
/** The answer to a request nothing was scripted for. */
const DEFAULT_REPLY: FakeReply = { kind: "answer", text: "Default answer [1]." };

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const errorBody = (status: number) => ({
  error: { message: `fake error ${status}`, type: status === 401 ? "invalid_request_error" : "server_error" },
});

const chunk = (model: string, delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  })}\n\n`;

/** Splits text into word-sized deltas the way a model streams it. */
export const toDeltas = (text: string): ReadonlyArray<string> => text.match(/\S+\s*|\s+/g) ?? [];

const waitForAbort = (request: Request) =>
  new Promise<Response>((resolve) => {
    request.signal.addEventListener("abort", () => resolve(new Response(null, { status: 499 })), {
      once: true,
    });
  });

const sse = (request: Request, model: string, reply: FakeReply): Response => {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      const controller = {
        enqueue: (text: string) => open && stream.enqueue(encoder.encode(text)),
        close: () => {
          open = false;
          stream.close();
        },
      };
      request.signal.addEventListener(
        "abort",
        () => {
          if (open) stream.error(new Error("client went away"));
          open = false;
        },
        { once: true },
      );
      controller.enqueue(chunk(model, { role: "assistant", content: "" }, { x_groq: { id: "req_fake" } }));
      if (reply.kind === "malformed") {
        controller.enqueue("data: {not json\n\n");
        controller.close();
        return;
      }
      const deltas =
        reply.kind === "answer"
          ? toDeltas(reply.text)
          : reply.kind === "hang"
            ? []
            : "deltas" in reply
              ? reply.deltas
              : [];
      for (const piece of deltas) controller.enqueue(chunk(model, { content: piece }));
      if (reply.kind === "stall-mid-stream" || reply.kind === "hang") return; // never closes
      if (reply.kind === "error-mid-stream") {
        controller.enqueue(`data: ${JSON.stringify({ error: { message: "fake stream failure" } })}\n\n`);
        controller.close();
        return;
      }
      if (reply.kind === "answer") {
        const usage = reply.usage ?? DEFAULT_USAGE;
        const where = reply.streamUsage ?? "x_groq";
        const extra =
          where === "x_groq" ? { x_groq: { id: "req_fake", usage } } : where === "top-level" ? { usage } : {};
        controller.enqueue(chunk(model, {}, extra).replace('"finish_reason":null', '"finish_reason":"stop"'));
      }
      controller.enqueue("data: [DONE]\n\n");
      controller.close();
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
};

const completion = (model: string, text: string, usage: FakeUsage) => ({
  id: "chatcmpl-fake",
  object: "chat.completion",
  created: 1_700_000_000,
  model,
  choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
  usage,
  x_groq: { id: "req_fake" },
});

/** Starts the fake on a free loopback port. Requests with another key get a 401. */
export const startFakeGroq = async (options: { readonly apiKey?: string } = {}): Promise<FakeGroq> => {
  const apiKey = options.apiKey ?? "gsk_test_fake_key";
  const requests: RecordedRequest[] = [];
  let queue: FakeReply[] = [];
  const port = await freePort();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const raw = await request.text();
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text: a test may assert on a body that is not JSON
      }
      const authorization = request.headers.get("authorization");
      requests.push({ method: request.method, path: url.pathname, authorization, body });
      if (request.method !== "POST" || url.pathname !== CHAT_PATH)
        return json({ error: { message: "not found" } }, 404);
      if (authorization !== `Bearer ${apiKey}`) return json(errorBody(401), 401);
      const reply = queue.shift() ?? DEFAULT_REPLY;
      const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
      const model = typeof fields.model === "string" ? fields.model : "unknown";
      if (reply.kind === "status") return json(errorBody(reply.status), reply.status, reply.headers);
      if (reply.kind === "hang") return waitForAbort(request);
      if (fields.stream === true && reply.kind !== "wrong-shape") return sse(request, model, reply);
      if (reply.kind === "malformed")
        return new Response('{"id": "chatcmpl-fake", "choices": [', {
          headers: { "content-type": "application/json" },
        });
      if (reply.kind === "wrong-shape") return json({ object: "list", data: [] });
      if (reply.kind === "answer") return json(completion(model, reply.text, reply.usage ?? DEFAULT_USAGE));
      return waitForAbort(request); // a stall on a non-streaming request is a hang
    },
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    script: (...replies) => {
      queue.push(...replies);
    },
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    stop: () => server.stop(true),
  };
};
