/**
 * A child process's output as the service helper keeps it: everything, with its JSON log lines
 * parsed (tests that read every line), or only its last `tail` characters and no parsed lines
 * (long benchmark runs, whose access log would otherwise fill the harness's memory).
 */

export type LogLine = Readonly<Record<string, unknown>>;

/** Feed it stdout and stderr chunks as they arrive. */
export const outputCollector = (tail: number | undefined) => {
  let output = "";
  let partial = "";
  const logs: LogLine[] = [];
  const keep = (text: string) => {
    output += text;
    // Trimmed at twice the tail, so a long run copies the string once per `tail` characters, not per chunk.
    if (tail !== undefined && output.length > 2 * tail) output = output.slice(-tail);
  };
  const parse = (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("{")) continue;
      try {
        logs.push(JSON.parse(line));
      } catch {
        // not a log line (a stray print): kept in output() only
      }
    }
  };
  return {
    onStdout: (text: string) => {
      keep(text);
      if (tail === undefined) parse(text);
    },
    onStderr: keep,
    output: () => (tail === undefined ? output : output.slice(-tail)),
    logs: (): ReadonlyArray<LogLine> => {
      if (tail !== undefined)
        throw new Error("log lines are not kept: the service was started with outputTail");
      return logs;
    },
  };
};
