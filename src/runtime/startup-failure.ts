/**
 * What an operator reads when the service cannot start: the problem in one sentence and what
 * to do, never a stack trace and never a secret (a Redis URL's password, an API key). Covers
 * the listening socket (Bun and Deno word it differently) and the dependencies checked at start.
 */
import type { AppConfig } from "../../core/config/config.ts";

const field = (error: unknown, name: string): unknown =>
  typeof error === "object" && error !== null ? (error as Record<string, unknown>)[name] : undefined;

const addressInUse = (error: unknown): boolean =>
  field(error, "code") === "EADDRINUSE" ||
  field(error, "name") === "AddrInUse" ||
  /address already in use|is port \d+ in use/i.test(String(field(error, "message") ?? ""));

const permissionDenied = (error: unknown): boolean =>
  field(error, "code") === "EACCES" || field(error, "name") === "PermissionDenied";

export interface StartupProblem {
  readonly problem: string;
  readonly fix?: string;
}

/** The log fields of a failed start. */
export const describeStartupFailure = (
  error: unknown,
  config: Pick<AppConfig, "host" | "port">,
): StartupProblem => {
  const where = `${config.host}:${config.port}`;
  if (addressInUse(error))
    return {
      problem: `port ${config.port} is already in use on ${config.host}`,
      fix: "stop the process that listens there (maybe another `npm start`) or set PORT to a free port",
    };
  if (permissionDenied(error))
    return {
      problem: `not allowed to listen on ${where}`,
      fix: "use a PORT above 1023 or run with the right to bind it",
    };
  if (field(error, "name") === "NoChainConfigured")
    return {
      problem: String(field(error, "message")),
      fix: "set CHAIN_NETWORK, USDC_MINT_ADDRESS and PAYMENT_WALLET_ADDRESS (see .env.example); to try the service offline, run `npm start` from a checkout",
    };
  if (field(error, "name") === "LocalChainMissing")
    return {
      problem: String(field(error, "message")),
      fix: "set CHAIN_NETWORK, USDC_MINT_ADDRESS and PAYMENT_WALLET_ADDRESS (see .env.example), or install the optional dependencies (npm install)",
    };
  switch (field(error, "_tag")) {
    case "StoreUnavailable":
      return {
        problem: String(field(error, "reason")),
        fix: "start Redis or fix REDIS_URL (or REDIS_SENTINELS, REDIS_CLUSTER_NODES); the service does not start without its store",
      };
    case "RetrievalFailed":
      return { problem: String(field(error, "message")) };
  }
  // Anything else: its type and message (the layers built at start fail with the errors above).
  const name = field(error, "_tag") ?? field(error, "name") ?? "unknown error";
  return { problem: `${String(name)}: ${String(field(error, "message") ?? "")}`.trim() };
};
