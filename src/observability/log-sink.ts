/**
 * Where log lines go. A busy server writes an access line per request; one write call (a
 * syscall) per line cost more than the rest of a status request, so access lines are batched:
 * written together after at most `maxDelayMs`, or at once when `maxLines` are waiting. A batched
 * line is appended to one pending string as it comes (the engine keeps the joins as a rope,
 * flattened once by the write), which measured cheaper than keeping a closure and its entry per
 * line and rendering them all at the write (dev/bench/edge-cost.ts; docs/performance.md).
 * Every other line (startup, warnings, errors) first writes what is pending, then itself, so
 * order is kept and problems show at once. `flush` runs at shutdown and exit; a SIGKILL loses at
 * most the last `maxDelayMs` of access lines.
 */
export interface LogSink {
  /** A line written with its batch. */
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
  readonly maxLines?: number;
}

/** `write` gets several lines joined by newlines (console.log adds the last one). */
export const batchingSink = (
  write: (text: string) => void,
  { maxDelayMs = 25, maxLines = 1000 }: BatchOptions = {},
): LogSink => {
  let pending = "";
  let count = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (count === 0) return;
    const text = pending;
    pending = "";
    count = 0;
    write(text);
  };
  return {
    batched: (line) => {
      pending = count === 0 ? line : `${pending}\n${line}`;
      count++;
      if (count >= maxLines) flush();
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
