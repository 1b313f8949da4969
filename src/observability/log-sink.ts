/**
 * Where log lines go. A busy server writes an access line per request; one write call (a
 * syscall) per line cost more than the rest of a status request, so access lines are batched:
 * written together after at most `maxDelayMs`, or at once when `maxBytes` are waiting. Every
 * other line (startup, warnings, errors) first writes what is pending, then itself, so order is
 * kept and problems show at once. `flush` runs at shutdown and exit; a SIGKILL loses at most
 * the last `maxDelayMs` of access lines.
 */
export interface LogSink {
  /** A line that may wait for the next batch. */
  readonly batched: (line: string) => void;
  /** A line written now, after anything pending. */
  readonly immediate: (line: string) => void;
  readonly flush: () => void;
}

/** Every line written at once (tests, tools). */
export const directSink = (write: (text: string) => void): LogSink => ({
  batched: write,
  immediate: write,
  flush: () => undefined,
});

export interface BatchOptions {
  readonly maxDelayMs?: number;
  readonly maxBytes?: number;
}

/** `write` gets several lines joined by newlines (console.log adds the last one). */
export const batchingSink = (
  write: (text: string) => void,
  { maxDelayMs = 25, maxBytes = 64 * 1024 }: BatchOptions = {},
): LogSink => {
  let pending: string[] = [];
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.join("\n");
    pending = [];
    bytes = 0;
    write(text);
  };
  return {
    batched: (line) => {
      pending.push(line);
      bytes += line.length;
      if (bytes >= maxBytes) flush();
      else if (timer === undefined) {
        timer = setTimeout(flush, maxDelayMs);
        // A pending batch must not keep an otherwise finished process alive.
        (timer as { unref?: () => void }).unref?.();
      }
    },
    immediate: (line) => {
      flush();
      write(line);
    },
    flush,
  };
};
