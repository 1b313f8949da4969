/** Reading JSON-RPC params strictly: a wrong argument is -32602, never a crash or a guess. */
import { type Address, isAddress } from "@solana/kit";
import { invalidParams, rpcFailure } from "./rpc-failure.ts";

export type Params = ReadonlyArray<unknown>;

/** The address at `params[index]`. */
export const addressParam = (params: Params, index: number): Address => {
  const value = params[index];
  if (typeof value !== "string" || !isAddress(value)) throw invalidParams("Invalid param: Invalid");
  return value;
};

/** The config object at `params[index]` (absent -> empty). */
export const configParam = (params: Params, index: number): Record<string, unknown> => {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw invalidParams("Invalid params: expected a config object");
  return value as Record<string, unknown>;
};

/** A non-negative safe integer at `params[index]`. */
export const integerParam = (params: Params, index: number, what: string): number => {
  const value = params[index];
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw invalidParams(`Invalid params: ${what} must be a non-negative integer`);
  }
  return value;
};

/** A string option from a config object, checked against the allowed values. */
export const choiceOption = <T extends string>(
  config: Record<string, unknown>,
  key: string,
  allowed: ReadonlyArray<T>,
  fallback: T,
): T => {
  const value = config[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string" && (allowed as ReadonlyArray<string>).includes(value)) return value as T;
  throw invalidParams(`Invalid params: ${key} must be one of ${allowed.join(", ")}`);
};

export const COMMITMENTS = ["processed", "confirmed", "finalized"] as const;
export type Commitment = (typeof COMMITMENTS)[number];

/** Methods that read history refuse `processed`, as a validator does. */
export const historyCommitment = (config: Record<string, unknown>): Commitment => {
  const commitment = choiceOption(config, "commitment", COMMITMENTS, "finalized");
  if (commitment === "processed") throw invalidParams("Method does not support commitment below `confirmed`");
  return commitment;
};

/** The reply of methods that carry a context. */
export const withContext = (slot: number, value: unknown) => ({
  context: { apiVersion: "2.2.0", slot },
  value,
});

export const methodNotFound = (method: string) => rpcFailure(-32601, `Method not found: ${method}`);

/** A JSON-RPC method: params in, result out (or a thrown RpcFailure). */
export type Handler = (params: Params) => unknown;
export type Methods = Readonly<Record<string, Handler>>;
