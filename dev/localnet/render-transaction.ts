/** A recorded transaction as `getTransaction` returns it, in `json`, `jsonParsed`, `base64` or `base58`. */
import { getBase58Decoder, getBase64Decoder } from "@solana/kit";
import { parsedInstruction } from "./parse-instruction.ts";
import { invalidParams } from "./rpc-failure.ts";
import { statusOf } from "./tx-error.ts";
import type { TxRecord } from "./tx-record.ts";

export const TRANSACTION_ENCODINGS = ["json", "jsonParsed", "base64", "base58"] as const;
export type TransactionEncoding = (typeof TRANSACTION_ENCODINGS)[number];

const base58 = (bytes: Uint8Array): string => getBase58Decoder().decode(bytes);

const header = (record: TxRecord) => {
  const h = record.wire.message.header;
  return {
    numRequiredSignatures: h.numSignerAccounts,
    numReadonlySignedAccounts: h.numReadonlySignerAccounts,
    numReadonlyUnsignedAccounts: h.numReadonlyNonSignerAccounts,
  };
};

const isWritable = (record: TxRecord, index: number): boolean => {
  const h = record.wire.message.header;
  const total = record.wire.accountKeys.length;
  return index < h.numSignerAccounts
    ? index < h.numSignerAccounts - h.numReadonlySignerAccounts
    : index < total - h.numReadonlyNonSignerAccounts;
};

const message = (record: TxRecord, parsed: boolean) => {
  const keys = record.wire.accountKeys;
  const accountKeys = parsed
    ? keys.map((pubkey, index) => ({
        pubkey,
        signer: index < record.wire.message.header.numSignerAccounts,
        writable: isWritable(record, index),
        source: "transaction",
      }))
    : [...keys];
  const instructions = record.wire.message.instructions.map((ix) => {
    const accounts = ix.accountIndices ?? [];
    const data = new Uint8Array(ix.data ?? []);
    return parsed
      ? parsedInstruction(
          keys[ix.programAddressIndex] ?? "",
          accounts.map((i) => keys[i] ?? ""),
          data,
          null,
        )
      : { programIdIndex: ix.programAddressIndex, accounts, data: base58(data), stackHeight: null };
  });
  return {
    accountKeys,
    header: header(record),
    recentBlockhash: record.wire.message.lifetimeToken,
    instructions,
    ...(record.wire.message.version === 0 ? { addressTableLookups: [] } : {}),
  };
};

const meta = (record: TxRecord, parsed: boolean) => {
  const keys = record.wire.accountKeys;
  return {
    err: record.err,
    status: statusOf(record.err),
    fee: record.fee,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    innerInstructions: record.innerInstructions.map((group) => ({
      index: group.index,
      instructions: group.instructions.map((ix) =>
        parsed
          ? parsedInstruction(
              keys[ix.programIdIndex] ?? "",
              ix.accounts.map((i) => keys[i] ?? ""),
              ix.data,
              ix.stackHeight,
            )
          : {
              programIdIndex: ix.programIdIndex,
              accounts: ix.accounts,
              data: base58(ix.data),
              stackHeight: ix.stackHeight,
            },
      ),
    })),
    logMessages: record.logMessages,
    preTokenBalances: record.preTokenBalances,
    postTokenBalances: record.postTokenBalances,
    rewards: [],
    loadedAddresses: { writable: [], readonly: [] },
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
};

/** The `getTransaction` result for a record. */
export const renderTransaction = (record: TxRecord, encoding: TransactionEncoding) => {
  const common = {
    slot: record.slot,
    blockTime: record.blockTime,
    version: record.wire.message.version,
  };
  switch (encoding) {
    case "json":
    case "jsonParsed": {
      const parsed = encoding === "jsonParsed";
      return {
        ...common,
        meta: meta(record, parsed),
        transaction: { signatures: record.wire.signatures, message: message(record, parsed) },
      };
    }
    case "base64":
      return {
        ...common,
        meta: meta(record, false),
        transaction: [getBase64Decoder().decode(record.wire.bytes), "base64"],
      };
    case "base58":
      return { ...common, meta: meta(record, false), transaction: [base58(record.wire.bytes), "base58"] };
    default:
      encoding satisfies never;
      throw invalidParams(`unsupported encoding: ${String(encoding)}`);
  }
};
