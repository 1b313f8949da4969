/**
 * Server-Sent Events from a fetch body. Bytes are decoded as a stream (a character split across
 * chunks waits for its last byte) and events are framed by eventsource-parser (an event split
 * across chunks waits for its blank line), so no token is lost however the network cuts the body.
 */
import { createParser } from "eventsource-parser";

export interface ServerEvent {
  readonly event: string;
  readonly data: string;
}

/** Calls `onEvent` for each complete event of `body`, in order; resolves at the end of the stream. */
export const readServerEvents = async (
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ServerEvent) => void,
): Promise<void> => {
  const parser = createParser({
    onEvent: (message) => onEvent({ event: message.event ?? "message", data: message.data }),
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  // Bytes of an unfinished character, then a last event left without its closing blank line.
  parser.feed(`${decoder.decode()}\n\n`);
};
