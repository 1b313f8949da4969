/**
 * JSON-RPC 2.0 over HTTP on 127.0.0.1 (node:http, so it runs under Bun, Node and Deno alike),
 * with the test faults applied before dispatch.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { FaultKind, Faults } from "./faults.ts";
import { isRpcFailure, rpcFailure, toJsonText } from "./rpc-failure.ts";
import { type Methods, methodNotFound } from "./rpc-params.ts";

const MAX_BODY_BYTES = 1_000_000;
/** What a `wrong-shape` fault puts in `result`: valid JSON-RPC, nonsense for every method. */
const WRONG_SHAPE_RESULT = { value: "wrong-shape", slot: "not-a-number", meta: 42 };

type Reply =
  | { readonly kind: "json"; readonly status: number; readonly text: string }
  | { readonly kind: "hang" };

const json = (value: unknown, status = 200): Reply => ({ kind: "json", status, text: toJsonText(value) });

const call = async (methods: Methods, request: unknown): Promise<unknown> => {
  const {
    id = null,
    method,
    params = [],
  } = (request ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
  const envelope = (body: object) => ({ jsonrpc: "2.0", ...body, id });
  if (
    typeof request !== "object" ||
    request === null ||
    typeof method !== "string" ||
    !Array.isArray(params)
  ) {
    return envelope({ error: { code: -32600, message: "Invalid request" } });
  }
  const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
  try {
    if (handler === undefined) throw methodNotFound(method);
    return envelope({ result: await handler(params) });
  } catch (cause) {
    const failure = isRpcFailure(cause) ? cause : rpcFailure(-32603, "Internal error");
    if (!isRpcFailure(cause)) console.error(`localnet: ${method} failed:`, cause);
    return envelope({ error: { code: failure.code, message: failure.message, data: failure.data } });
  }
};

const faultReply = (kind: FaultKind, request: unknown): Reply => {
  switch (kind) {
    case "timeout":
      return { kind: "hang" };
    case "http-429":
      return { kind: "json", status: 429, text: "Too many requests for a specific RPC call" };
    case "http-500":
      return { kind: "json", status: 500, text: "Internal Server Error" };
    case "invalid-json":
      return { kind: "json", status: 200, text: '{"jsonrpc":"2.0","result":{"slot":' };
    case "wrong-shape": {
      const id = Array.isArray(request) ? null : ((request as { id?: unknown } | null)?.id ?? null);
      return json({ jsonrpc: "2.0", result: WRONG_SHAPE_RESULT, id });
    }
    default:
      return kind satisfies never;
  }
};

/** The reply to one HTTP body (a single call or a batch). */
const answer = async (body: string, methods: Methods, faults: Faults): Promise<Reply> => {
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    return json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
  }
  const calls = Array.isArray(request) ? request : [request];
  const kinds = calls.map((item) => faults.take(String((item as { method?: unknown } | null)?.method)));
  const fault = kinds.find((kind) => kind !== undefined);
  if (fault !== undefined) return faultReply(fault, request);
  const results = await Promise.all(calls.map((item) => call(methods, item)));
  return json(Array.isArray(request) ? results : results[0]);
};

const readBody = (req: IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

export interface RpcServer {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0 = any free port). */
export const startRpcServer = async (port: number, methods: Methods, faults: Faults): Promise<RpcServer> => {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const respond = async () => {
      if (req.method === "GET" && req.url === "/health") return void res.end("ok");
      if (req.method !== "POST") return void res.writeHead(405).end();
      const body = await readBody(req);
      if (body === undefined) return void res.writeHead(413).end("request too large");
      const reply = await answer(body, methods, faults);
      // A hanging reply is never written; the socket is destroyed when the client gives up or on stop.
      if (reply.kind === "hang") return;
      res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.text);
    };
    respond().catch((cause: unknown) => {
      console.error("localnet: request failed:", cause);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : port;
  return {
    url: `http://127.0.0.1:${boundPort}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
};
