/**
 * Fault injection for tests: per JSON-RPC method (or "*" for all), answer the next calls with a
 * fault instead of the real reply. Counts every call, so a test can see retries happen.
 */

export const FAULT_KINDS = ["timeout", "http-429", "http-500", "invalid-json", "wrong-shape"] as const;
/**
 * timeout: never answer (the client gives up); http-429 / http-500: that status, no JSON-RPC body;
 * invalid-json: a 200 reply that is not JSON; wrong-shape: valid JSON-RPC whose result has the wrong shape.
 */
export type FaultKind = (typeof FAULT_KINDS)[number];
/** A kind alone lasts until cleared; `times` limits it to the next N calls. */
export type Fault = FaultKind | { readonly kind: FaultKind; readonly times?: number };
/** Method name (or "*") -> fault. */
export type FaultPlan = Readonly<Record<string, Fault>>;

interface Armed {
  readonly kind: FaultKind;
  remaining: number;
}

export const makeFaults = () => {
  let armed = new Map<string, Armed>();
  const calls = new Map<string, number>();
  return {
    /** Replaces every fault with `plan` (an empty plan clears them). */
    set: (plan: FaultPlan): void => {
      armed = new Map(
        Object.entries(plan).map(([method, fault]) => [
          method,
          typeof fault === "string"
            ? { kind: fault, remaining: Number.POSITIVE_INFINITY }
            : { kind: fault.kind, remaining: fault.times ?? Number.POSITIVE_INFINITY },
        ]),
      );
    },
    /** Counts a call and returns the fault to apply to it, if any. */
    take: (method: string): FaultKind | undefined => {
      calls.set(method, (calls.get(method) ?? 0) + 1);
      const key = armed.has(method) ? method : armed.has("*") ? "*" : undefined;
      const fault = key === undefined ? undefined : armed.get(key);
      if (key === undefined || fault === undefined) return undefined;
      fault.remaining -= 1;
      if (fault.remaining <= 0) armed.delete(key);
      return fault.kind;
    },
    /** Calls seen for `method` since start (faulted ones included). */
    calls: (method: string): number => calls.get(method) ?? 0,
  };
};

export type Faults = ReturnType<typeof makeFaults>;

/** Parses a CLI fault spec `method=kind[:times]`, e.g. `getTransaction=http-500:2`. */
export const parseFaultSpec = (spec: string): [string, Fault] => {
  const match = /^([A-Za-z*]+)=([a-z0-9-]+)(?::(\d+))?$/.exec(spec);
  const kind = FAULT_KINDS.find((candidate) => candidate === match?.[2]);
  if (match?.[1] === undefined || kind === undefined) {
    throw new Error(
      `bad fault "${spec}": expected method=kind[:times], kind one of ${FAULT_KINDS.join(", ")}`,
    );
  }
  return [match[1], match[3] === undefined ? kind : { kind, times: Number(match[3]) }];
};
