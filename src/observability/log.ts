/**
 * JSON-line logs (INFO/WARN/ERROR). Callers pass plain fields; values under keys that look
 * secret are masked anyway, as a second line of defence.
 */
export type Level = "INFO" | "WARN" | "ERROR";
export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  readonly info: (msg: string, fields?: LogFields) => void;
  readonly warn: (msg: string, fields?: LogFields) => void;
  readonly error: (msg: string, fields?: LogFields) => void;
}

const SECRET_KEY = /(secret|password|passwd|api[_-]?key|authorization|token$|private)/i;

const scrub = (fields: LogFields): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, SECRET_KEY.test(key) && key !== "tokensUsed" ? "[redacted]" : value]),
  );

/** A logger writing one JSON object per line to `write` (stdout by default). */
export const makeLogger = (write: (line: string) => void = (line) => console.log(line)): Logger => {
  const emit = (level: Level) => (msg: string, fields: LogFields = {}) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...scrub(fields) }, bigintToString));
  return { info: emit("INFO"), warn: emit("WARN"), error: emit("ERROR") };
};

const bigintToString = (_key: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);

/** A logger that keeps lines in memory, for tests. */
export const memoryLogger = () => {
  const lines: Array<Record<string, unknown>> = [];
  return { logger: makeLogger((line) => lines.push(JSON.parse(line))), lines };
};
