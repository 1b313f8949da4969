/**
 * LiteSVM's transaction errors rendered as a validator writes them in JSON (`meta.err`,
 * `status.Err`): unit variants as strings, others as one-key objects, e.g.
 * `{"InstructionError":[0,{"Custom":1}]}`.
 */
import type { FailedTransactionMetadata } from "litesvm";
import {
  InstructionErrorBorshIo,
  InstructionErrorCustom,
  TransactionErrorDuplicateInstruction,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
  TransactionErrorProgramExecutionTemporarilyRestricted,
} from "litesvm/dist/internal.js";

// Same order as LiteSVM's TransactionErrorFieldless / InstructionErrorFieldless const enums.
const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
] as const;

const INSTRUCTION_ERRORS = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
] as const;

/** A transaction error in the validator's JSON form. */
export type TransactionErrorJson = string | Readonly<Record<string, unknown>>;

type LiteSvmError = ReturnType<FailedTransactionMetadata["err"]>;
type LiteSvmInstructionError = ReturnType<TransactionErrorInstructionError["err"]>;

const instructionErrorJson = (err: LiteSvmInstructionError): unknown => {
  if (err instanceof InstructionErrorCustom) return { Custom: err.code };
  if (err instanceof InstructionErrorBorshIo) return { BorshIoError: err.msg };
  return INSTRUCTION_ERRORS[err] ?? "GenericError";
};

/** The JSON form of a LiteSVM transaction error. */
export const transactionErrorJson = (err: LiteSvmError): TransactionErrorJson => {
  if (err instanceof TransactionErrorInstructionError) {
    return { InstructionError: [err.index, instructionErrorJson(err.err())] };
  }
  if (err instanceof TransactionErrorDuplicateInstruction) return { DuplicateInstruction: err.index };
  if (err instanceof TransactionErrorInsufficientFundsForRent) {
    return { InsufficientFundsForRent: { account_index: err.accountIndex } };
  }
  if (err instanceof TransactionErrorProgramExecutionTemporarilyRestricted) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex } };
  }
  return TRANSACTION_ERRORS[err] ?? "SanitizeFailure";
};

/** The `status` field of a signature status or transaction meta: `{Ok: null}` or `{Err: err}`. */
export const statusOf = (err: TransactionErrorJson | null) => (err === null ? { Ok: null } : { Err: err });

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  InsufficientFundsForFee: "Insufficient funds for fee",
  SignatureFailure: "Transaction did not pass signature verification",
};

/** Human text for a transaction error, in the style of a validator's preflight message. */
export const describeTransactionError = (err: TransactionErrorJson): string => {
  if (typeof err === "string") return DESCRIPTIONS[err] ?? err;
  const instruction = err.InstructionError;
  if (Array.isArray(instruction)) {
    const [index, inner] = instruction as [number, unknown];
    const custom =
      typeof inner === "object" && inner !== null ? (inner as { Custom?: unknown }).Custom : undefined;
    const detail =
      typeof custom === "number" ? `custom program error: 0x${custom.toString(16)}` : JSON.stringify(inner);
    return `Error processing Instruction ${index}: ${detail}`;
  }
  return JSON.stringify(err);
};
