/**
 * Where log lines go. A busy server writes an access line per request; one write call (a
 * syscall) per line cost more than the rest of a status request, so access lines are batched:
 * rendered and written together after at most `maxDelayMs`, or at once when `maxLines` are
 * waiting (rendering many lines in one go is also cheaper than one at a time between requests).
 * Every other line (startup, warnings, errors) first writes what is pending, then itself, so
 * order is kept and problems show at once. `flush` runs at shutdown and exit; a SIGKILL loses at
 * most the last `maxDelayMs` of access lines.
 */
export interface LogSink {
  /** A line, rendered by `render` when its batch is written. */
  readonly batched: (render: () => string) => void;
  /** A line written now, after anything pending. */
  readonly immediate: (line: string) => void;
  readonly flush: () => void;
}

/** Every line written at once (tests, tools). */
export const directSink = (write: (text: string) => void): LogSink => ({
  batched: (render) => write(render()),
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
  let pending: Array<() => string> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    write(lines.map((render) => render()).join("\n"));
  };
  return {
    batched: (render) => {
      pending.push(render);
      if (pending.length >= maxLines) flush();
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
