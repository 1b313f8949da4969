/**
 * The local chain: LiteSVM plus what a validator adds around it and LiteSVM does not keep in
 * a queryable form: slots and recent blockhashes, a history of executed transactions with
 * their balances before and after, wall-clock block times (with a test offset) and a
 * confirmation delay.
 */
import type { Address, Blockhash } from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import { snapshotBalances } from "./balances.ts";
import { type TransactionErrorJson, transactionErrorJson } from "./tx-error.ts";
import { innerInstructionsOf, type TxRecord } from "./tx-record.ts";
import { signatureText, type WireTransaction } from "./wire.ts";

/** Devnet's genesis hash; its first 32 characters are the CAIP-2 reference of devnet. */
export const DEVNET_GENESIS_HASH = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG";

/** How many blocks a blockhash stays usable, as on a real cluster. */
const BLOCKHASH_LIFETIME = 150;
const LAMPORTS_PER_SIGNATURE = 5000;

export type ExecuteOutcome =
  | { readonly kind: "executed"; readonly record: TxRecord }
  /** Failed before a fee was charged (bad blockhash, duplicate...): nothing is recorded. */
  | { readonly kind: "rejected"; readonly err: TransactionErrorJson };

export interface SimulateOutcome {
  readonly err: TransactionErrorJson | null;
  readonly logs: ReadonlyArray<string>;
  readonly unitsConsumed: bigint;
}

export interface ChainSettings {
  confirmationDelayMs: number;
  clockOffsetMs: number;
}

// LiteSVM keeps the fee in its metadata but does not expose it; its debug text ends with it.
// Anchored at the end, so a program log that says "fee: 1" cannot pose as the fee.
const feeOf = (meta: TransactionMetadata, signatures: number): number => {
  const match = /\bfee: (\d+) \}\)?$/.exec(meta.toString());
  return match?.[1] === undefined ? signatures * LAMPORTS_PER_SIGNATURE : Number(match[1]);
};

const isFullySigned = (wire: WireTransaction): boolean =>
  Object.values(wire.transaction.signatures).every((signature) => signature !== null);

// LiteSVM throws (rather than failing the transaction) on inputs it cannot even load.
const svmCall = <A>(run: () => A): A | "SanitizeFailure" => {
  try {
    return run();
  } catch {
    return "SanitizeFailure";
  }
};

/** The Lighthouse assertion program (Phantom's, Solflare's), which LiteSVM does not carry. */
export const LIGHTHOUSE_PROGRAM = "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95" as Address;
const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;

/**
 * A stand-in at Lighthouse's address, so wallet-added assertions run end to end here: the SPL
 * Memo program's own code (LiteSVM carries its ELF as the program account's data). Like an
 * assertion that holds, it succeeds for UTF-8 data whose accounts all sign (the payer's own
 * wallet), and moves nothing.
 */
const standInForLighthouse = (svm: LiteSVM) => {
  const memo = svm.getAccount(MEMO_PROGRAM);
  if (!memo.exists) throw new Error("LiteSVM carries no SPL Memo program to stand in for Lighthouse");
  svm.addProgram(LIGHTHOUSE_PROGRAM, memo.data);
};

/** Creates the chain; `now` is the wall clock in ms (a parameter so tests of this file could pin it). */
export const makeChain = (settings: ChainSettings, now: () => number = Date.now) => {
  // Blockhashes are checked here (a window of recent ones, as a cluster does), not by LiteSVM,
  // which only accepts its single latest blockhash.
  // The default airdrop reserve is too small for a faucet that lasts a whole test run.
  const svm = new LiteSVM().withLamports(10n ** 18n).withBlockhashCheck(false);
  standInForLighthouse(svm);
  // The local chain stands in for devnet (the spec dialect announces it as chain-devnet), so it
  // reports devnet's genesis hash: x402 v2 clients only know the public clusters' CAIP-2 ids.
  const genesisHash = DEVNET_GENESIS_HASH;
  const validBlockhashes = new Map<string, number>();
  const history: Array<TxRecord> = [];
  const bySignature = new Map<string, TxRecord>();
  let slot = 0;

  const blockTime = (): number => Math.floor((now() + settings.clockOffsetMs) / 1000);

  // One new block: next slot, a fresh blockhash, and the clock sysvar following wall time.
  const advance = (): void => {
    slot += 1;
    svm.expireBlockhash();
    validBlockhashes.set(svm.latestBlockhash(), slot + BLOCKHASH_LIFETIME);
    for (const [hash, lastValid] of validBlockhashes) if (lastValid < slot) validBlockhashes.delete(hash);
    const clock = svm.getClock();
    clock.slot = BigInt(slot);
    clock.unixTimestamp = BigInt(blockTime());
    svm.setClock(clock);
  };
  advance();

  const isBlockhashValid = (hash: string): boolean => (validBlockhashes.get(hash) ?? -1) >= slot;

  /** Hands out a fresh blockhash (each call is a new block, so two clients never collide). */
  const latestBlockhash = (): { blockhash: Blockhash; lastValidBlockHeight: number } => {
    advance();
    const blockhash = svm.latestBlockhash();
    return { blockhash, lastValidBlockHeight: validBlockhashes.get(blockhash) ?? slot };
  };

  /** Executes a signed transaction; records it when it landed (success, or failure with a fee). */
  const execute = (wire: WireTransaction): ExecuteOutcome => {
    if (bySignature.has(wire.signatures[0] ?? "")) return { kind: "rejected", err: "AlreadyProcessed" };
    if (!isBlockhashValid(wire.message.lifetimeToken)) return { kind: "rejected", err: "BlockhashNotFound" };
    if (!isFullySigned(wire)) return { kind: "rejected", err: "SignatureFailure" };
    const keys = wire.accountKeys;
    const before = snapshotBalances(svm, keys);
    const result = svmCall(() => svm.sendTransaction(wire.transaction));
    if (typeof result === "string") return { kind: "rejected", err: result };
    const failed = result instanceof FailedTransactionMetadata;
    const meta = failed ? result.meta() : result;
    const signature = wire.signatures[0] ?? "";
    // LiteSVM leaves the signature zeroed when the transaction never got as far as paying a fee.
    if (signatureText(meta.signature()) !== signature) {
      return { kind: "rejected", err: failed ? transactionErrorJson(result.err()) : "SanitizeFailure" };
    }
    const after = snapshotBalances(svm, keys);
    const record: TxRecord = {
      signature,
      wire,
      slot,
      blockTime: blockTime(),
      confirmAtMs: now() + settings.confirmationDelayMs,
      err: failed ? transactionErrorJson(result.err()) : null,
      fee: feeOf(meta, wire.signatures.length),
      preBalances: before.lamports,
      postBalances: after.lamports,
      preTokenBalances: before.tokens,
      postTokenBalances: after.tokens,
      logMessages: meta.logs(),
      innerInstructions: innerInstructionsOf(meta),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
    };
    history.push(record);
    bySignature.set(signature, record);
    advance();
    return { kind: "executed", record };
  };

  /** Runs a transaction against current state without keeping its effects. */
  const simulate = (
    wire: WireTransaction,
    options: { sigVerify: boolean; checkBlockhash: boolean },
  ): SimulateOutcome => {
    if (options.sigVerify && bySignature.has(wire.signatures[0] ?? "")) {
      return { err: "AlreadyProcessed", logs: [], unitsConsumed: 0n };
    }
    if (options.checkBlockhash && !isBlockhashValid(wire.message.lifetimeToken)) {
      return { err: "BlockhashNotFound", logs: [], unitsConsumed: 0n };
    }
    if (options.sigVerify && !isFullySigned(wire))
      return { err: "SignatureFailure", logs: [], unitsConsumed: 0n };
    svm.withSigverify(options.sigVerify);
    try {
      const result = svmCall(() => svm.simulateTransaction(wire.transaction));
      if (typeof result === "string") return { err: result, logs: [], unitsConsumed: 0n };
      const meta = result.meta();
      return {
        err: result instanceof FailedTransactionMetadata ? transactionErrorJson(result.err()) : null,
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
      };
    } finally {
      svm.withSigverify(true);
    }
  };

  return {
    svm,
    genesisHash: genesisHash as string,
    slot: () => slot,
    /** Produces `count` empty blocks (time passing on a cluster: blockhashes and statuses age). */
    skipBlocks: (count: number): void => {
      for (let i = 0; i < count; i += 1) advance();
    },
    latestBlockhash,
    isBlockhashValid,
    execute,
    simulate,
    record: (signature: string): TxRecord | undefined => bySignature.get(signature),
    /** Newest first. */
    recordsFor: (address: Address): ReadonlyArray<TxRecord> =>
      history.filter((record) => record.wire.accountKeys.includes(address)).reverse(),
    isConfirmed: (record: TxRecord): boolean => now() >= record.confirmAtMs,
  };
};

export type Chain = ReturnType<typeof makeChain>;
