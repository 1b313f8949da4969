/**
 * JSON-line logs (INFO/WARN/ERROR). Callers pass plain fields; values under keys that look
 * secret are masked anyway, as a second line of defence.
 */
import { KNOWN_METHODS } from "./http-methods.ts";
import { batchingSink, directSink } from "./log-sink.ts";

export type Level = "INFO" | "WARN" | "ERROR";
export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  readonly info: (msg: string, fields?: LogFields) => void;
  readonly warn: (msg: string, fields?: LogFields) => void;
  readonly error: (msg: string, fields?: LogFields) => void;
}

/** The access log entry of one request. */
export interface AccessEntry {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** `path` as a JSON string when the caller has it ready (the router's own paths): no escaping work per line. */
  readonly pathJson?: string;
  readonly status: number;
  readonly ms: number;
  readonly identity: string;
}

/** A logger that also writes access lines. */
export interface ServiceLogger extends Logger {
  /** The "request" line: ERROR for 5xx, WARN for other 4xx but 402/404, INFO otherwise. */
  readonly access: (entry: AccessEntry) => void;
  /** Writes any batched lines now (shutdown, exit). */
  readonly flush: () => void;
}

const accessLevel = (status: number): Level =>
  status >= 500 ? "ERROR" : status >= 400 && status !== 402 && status !== 404 ? "WARN" : "INFO";

const SECRET_KEY = /(secret|password|passwd|api[_-]?key|authorization|private|credential)/i;
/** Verdict per field name, cached: log fields come from a small fixed set of names. */
const secretKeys = new Map<string, boolean>();
const isSecretKey = (key: string): boolean => {
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    secret = SECRET_KEY.test(key);
    if (secretKeys.size < 1000) secretKeys.set(key, secret);
  }
  return secret;
};

/** Nested fields are looked at too (`{ user: { password } }`), down to this depth. */
const MAX_SCRUB_DEPTH = 4;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** `value` with secret-named fields masked and bigints as text; the same object when nothing changes. */
const scrubValue = (value: unknown, depth: number): unknown => {
  if (typeof value === "bigint") return value.toString();
  if (depth >= MAX_SCRUB_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = scrubValue(item, depth + 1);
      if (clean === item) return;
      copy ??= [...value];
      copy[i] = clean;
    });
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  let clean: Record<string, unknown> | undefined;
  for (const key in value) {
    const field = value[key];
    const masked = isSecretKey(key) ? "[redacted]" : scrubValue(field, depth + 1);
    if (masked === field) continue;
    clean ??= { ...value };
    clean[key] = masked;
  }
  return clean ?? value;
};

const scrub = (fields: LogFields): LogFields => scrubValue(fields, 0) as LogFields;

/** ISO time of a millisecond, formatted once per millisecond (busy servers log many lines per ms). */
let lastMs = 0;
let lastIso = "";
const isoOf = (ms: number): string => {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
};
const isoNow = (): string => isoOf(Date.now());

/** Methods as JSON strings: the usual ones need no escaping work per line. */
const QUOTED_METHODS = new Map<string, string>(KNOWN_METHODS.map((m) => [m, JSON.stringify(m)]));

/** The access line: the same JSON as the generic logger would write for these fields. */
const accessLine = (
  time: number,
  { requestId, method, path, pathJson, status, ms, identity }: AccessEntry,
): string =>
  // The request id and identity are made by the edge from characters JSON never escapes;
  // method and path come from the client and are escaped.
  `{"time":"${isoOf(time)}","level":"${accessLevel(status)}","msg":"request","requestId":"${requestId}","method":${QUOTED_METHODS.get(method) ?? JSON.stringify(method)},"path":${pathJson ?? JSON.stringify(path)},"status":${status},"ms":${ms},"identity":"${identity}"}`;

/**
 * A logger writing one JSON object per line: to `write` at once when given one (tests, tools),
 * else to stdout with access lines batched (see log-sink.ts).
 */
export const makeLogger = (write?: (line: string) => void): ServiceLogger => {
  const sink = write === undefined ? batchingSink((text) => console.log(text)) : directSink(write);
  const emit =
    (level: Level) =>
    (msg: string, fields: LogFields = {}) =>
      sink.immediate(JSON.stringify({ time: isoNow(), level, msg, ...scrub(fields) }));
  return {
    flush: sink.flush,
    info: emit("INFO"),
    warn: emit("WARN"),
    error: emit("ERROR"),
    // One line per request, so it is put together by hand.
    access: (entry) => sink.batched(accessLine(Date.now(), entry)),
  };
};

/** A logger that keeps lines in memory, for tests. */
export const memoryLogger = () => {
  const lines: Array<Record<string, unknown>> = [];
  return { logger: makeLogger((line) => lines.push(JSON.parse(line))), lines };
};
