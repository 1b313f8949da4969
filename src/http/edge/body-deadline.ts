/**
 * The body deadline: a request's body is read in full before routing, within `deadlineMs` and
 * at most `maxBytes`, so a client trickling its body cannot hold a connection (and a route's
 * await) for longer than that on either runtime. Bun cut such a trickle only after about 12 s
 * and Deno never did; bodies here are small (16 KiB at most), so holding one in memory costs
 * nothing, and routes then read it at once from the buffered copy.
 */

export type BufferedBody =
  | { readonly kind: "ok"; readonly request: Request }
  | { readonly kind: "timeout" }
  | { readonly kind: "too-large" };

const concat = (chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
};

/** Whether the request may carry a body worth reading (GET, HEAD and OPTIONS never do here). */
export const carriesBody = (method: string): boolean =>
  method !== "GET" && method !== "HEAD" && method !== "OPTIONS";

/** The request with its body read in full, or why not; `request.body` must not be null. */
export const bufferBody = async (
  request: Request,
  body: ReadableStream<Uint8Array>,
  deadlineMs: number,
  maxBytes: number,
): Promise<BufferedBody> => {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return { kind: "too-large" };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), deadlineMs);
  });
  // Cancelling tells the runtime we will read no more; the caller's response then closes the connection.
  const giveUp = <K extends "timeout" | "too-large">(kind: K) => {
    reader.cancel().catch(() => undefined);
    return { kind };
  };
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "timeout") return giveUp("timeout");
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) return giveUp("too-large");
      chunks.push(next.value);
    }
  } catch {
    // The client went away mid-body: answer as for a late body (nobody reads it anyway).
    return { kind: "timeout" };
  } finally {
    clearTimeout(timer);
  }
  const buffered = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: concat(chunks, size),
    // The chat listens to this signal for a hang-up: the copy keeps following the original.
    signal: request.signal,
  });
  return { kind: "ok", request: buffered };
};
