/** Transaction methods: send, simulate, fetch, statuses, history per address. */
import { isSignature } from "@solana/kit";
import { MEMO_PROGRAM_IDS } from "../../core/payments/parsed-transaction.ts";
import type { Chain } from "./chain.ts";
import { renderTransaction, TRANSACTION_ENCODINGS } from "./render-transaction.ts";
import { invalidParams, rpcFailure } from "./rpc-failure.ts";
import {
  addressParam,
  choiceOption,
  configParam,
  historyCommitment,
  type Methods,
  type Params,
  withContext,
} from "./rpc-params.ts";
import { describeTransactionError, statusOf } from "./tx-error.ts";
import type { TxRecord } from "./tx-record.ts";
import { decodeWire } from "./wire.ts";

const WIRE_ENCODINGS = ["base58", "base64"] as const;

const signatureParam = (value: unknown): string => {
  if (typeof value !== "string" || !isSignature(value)) throw invalidParams("Invalid param: Invalid");
  return value;
};

/** The transaction at `params[0]`, in the wire encoding the config names (default base58). */
const wireParam = (params: Params, config: Record<string, unknown>) =>
  decodeWire(params[0], choiceOption(config, "encoding", WIRE_ENCODINGS, "base58"));

const status = (chain: Chain, record: TxRecord) => {
  const confirmed = chain.isConfirmed(record);
  return {
    slot: record.slot,
    confirmations: confirmed ? null : 0,
    err: record.err,
    status: statusOf(record.err),
    confirmationStatus: confirmed ? "finalized" : "processed",
  };
};

// getSignaturesForAddress writes memos as "[length] text", joined by "; ".
const memoField = (record: TxRecord): string | null => {
  const keys = record.wire.accountKeys;
  const memos = record.wire.message.instructions
    .filter((ix) => MEMO_PROGRAM_IDS.includes(keys[ix.programAddressIndex] ?? ""))
    .map((ix) => `[${ix.data?.length ?? 0}] ${new TextDecoder().decode(new Uint8Array(ix.data ?? []))}`);
  return memos.length === 0 ? null : memos.join("; ");
};

const signaturesForAddress = (chain: Chain, params: Params) => {
  const address = addressParam(params, 0);
  const config = configParam(params, 1);
  historyCommitment(config);
  const limit = config.limit ?? 1000;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw invalidParams("Invalid limit; max 1000");
  }
  let records = chain.recordsFor(address).filter(chain.isConfirmed);
  const before =
    typeof config.before === "string" ? records.findIndex((r) => r.signature === config.before) : -1;
  if (before >= 0) records = records.slice(before + 1);
  const until =
    typeof config.until === "string" ? records.findIndex((r) => r.signature === config.until) : -1;
  if (until >= 0) records = records.slice(0, until);
  return records.slice(0, limit).map((record) => ({
    signature: record.signature,
    slot: record.slot,
    err: record.err,
    memo: memoField(record),
    blockTime: record.blockTime,
    confirmationStatus: "finalized",
  }));
};

const sendTransaction = (chain: Chain, params: Params): string => {
  const config = configParam(params, 1);
  const wire = wireParam(params, config);
  if (config.skipPreflight !== true) {
    const simulated = chain.simulate(wire, { sigVerify: true, checkBlockhash: true });
    if (simulated.err === "SignatureFailure")
      throw rpcFailure(-32003, "Transaction signature verification failure");
    if (simulated.err !== null) {
      throw rpcFailure(
        -32002,
        `Transaction simulation failed: ${describeTransactionError(simulated.err)}`,
        simulationResult(simulated),
      );
    }
  }
  const outcome = chain.execute(wire);
  if (outcome.kind === "rejected" && outcome.err === "SignatureFailure") {
    throw rpcFailure(-32003, "Transaction signature verification failure");
  }
  if (outcome.kind === "rejected" && outcome.err === "SanitizeFailure") {
    throw invalidParams("invalid transaction: Transaction failed to sanitize accounts offsets correctly");
  }
  // Like a validator with skipPreflight: a transaction that never landed is silently dropped.
  return wire.signatures[0] ?? "";
};

/** The result fields of a simulation, as validators report them (preflight errors carry them too). */
const simulationResult = (simulated: ReturnType<Chain["simulate"]>) => ({
  err: simulated.err,
  logs: simulated.logs,
  accounts: null,
  unitsConsumed: simulated.unitsConsumed,
  returnData: null,
  innerInstructions: null,
});

const simulateTransaction = (chain: Chain, params: Params) => {
  const config = configParam(params, 1);
  const wire = wireParam(params, config);
  const sigVerify = config.sigVerify === true;
  const replace = config.replaceRecentBlockhash === true;
  if (sigVerify && replace) throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
  const simulated = chain.simulate(wire, { sigVerify, checkBlockhash: !replace });
  return withContext(chain.slot(), {
    ...simulationResult(simulated),
    replacementBlockhash: replace ? chain.latestBlockhash() : null,
  });
};

const getTransaction = (chain: Chain, params: Params) => {
  const signature = signatureParam(params[0]);
  const config = typeof params[1] === "string" ? { encoding: params[1] } : configParam(params, 1);
  historyCommitment(config);
  const encoding = choiceOption(config, "encoding", TRANSACTION_ENCODINGS, "json");
  const maxVersion = config.maxSupportedTransactionVersion;
  if (maxVersion !== undefined && maxVersion !== null && maxVersion !== 0) {
    throw invalidParams("Invalid params: maxSupportedTransactionVersion must be 0");
  }
  const record = chain.record(signature);
  if (record === undefined || !chain.isConfirmed(record)) return null;
  if (record.wire.message.version === 0 && (maxVersion === undefined || maxVersion === null)) {
    throw rpcFailure(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  return renderTransaction(record, encoding);
};

/**
 * How many blocks a validator's recent-status cache answers for: an older transaction is found
 * only with `searchTransactionHistory`, as on a real cluster (where it is about 300 slots).
 */
export const STATUS_CACHE_SLOTS = 300;

const getSignatureStatuses = (chain: Chain, params: Params) => {
  const signatures = params[0];
  if (!Array.isArray(signatures)) throw invalidParams("Invalid params: expected a list of signatures");
  if (signatures.length > 256) throw invalidParams("Too many inputs provided; max 256");
  const history = configParam(params, 1).searchTransactionHistory === true;
  return withContext(
    chain.slot(),
    signatures.map((value) => {
      const record = chain.record(signatureParam(value));
      const cached = record !== undefined && (history || chain.slot() - record.slot <= STATUS_CACHE_SLOTS);
      return cached ? status(chain, record) : null;
    }),
  );
};

/** The transaction methods over `chain`. */
export const transactionMethods = (chain: Chain): Methods => ({
  sendTransaction: (params) => sendTransaction(chain, params),
  simulateTransaction: (params) => simulateTransaction(chain, params),
  getTransaction: (params) => getTransaction(chain, params),
  getSignatureStatuses: (params) => getSignatureStatuses(chain, params),
  getSignaturesForAddress: (params) => signaturesForAddress(chain, params),
});
