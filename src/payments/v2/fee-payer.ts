/**
 * The service as facilitator: its fee-payer key co-signs a client's checked transaction,
 * simulates it, and later submits it and waits for confirmation. The key comes from
 * X402_FEE_PAYER_SECRET_KEY (base58 of the 64-byte secret, or the JSON byte array of
 * solana-keygen); no error or log line ever carries it. The transaction id is the fee payer's
 * signature, deterministic (ed25519), so the same payload always names the same transaction:
 * sent twice it lands once.
 */
import {
  type Address,
  createKeyPairSignerFromBytes,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  type KeyPairSigner,
  partiallySignTransaction,
  type Signature,
  type Transaction,
} from "@solana/kit";
import { fetchMaybeMint } from "@solana-program/token";
import { type ChainFate, type Fate, fateOf } from "../../../core/payments/pending-settlement.ts";
import { ChainUnavailable } from "../../../core/ports/chain-reader.ts";
import { countedSolanaRpc, type OnRpcCall } from "../../solana/rpc-calls.ts";

export const FEE_PAYER_SECRET_VARIABLE = "X402_FEE_PAYER_SECRET_KEY";
/** How long a settlement waits for its confirmation before it is left to the reconciler. */
export const CONFIRM_TIMEOUT_MS = 30_000;
const CONFIRM_POLL_MS = 150;

/** The key of a secret (its bytes, or text in either form); an Error naming the variable, never the value. */
export const loadFeePayer = async (secret: Uint8Array | string): Promise<KeyPairSigner> => {
  let bytes: Uint8Array;
  try {
    const text = typeof secret === "string" ? secret.trim() : "";
    bytes =
      typeof secret !== "string"
        ? secret
        : text.startsWith("[")
          ? Uint8Array.from(JSON.parse(text) as Array<number>)
          : Uint8Array.from(getBase58Encoder().encode(text));
  } catch {
    throw new Error(`${FEE_PAYER_SECRET_VARIABLE}: not base58 nor a JSON byte array`);
  }
  if (bytes.length !== 64) throw new Error(`${FEE_PAYER_SECRET_VARIABLE}: a secret key is 64 bytes`);
  return createKeyPairSignerFromBytes(bytes).catch(() => {
    throw new Error(`${FEE_PAYER_SECRET_VARIABLE}: the public half does not match the secret`);
  });
};

/** A transaction signed by the fee payer too, as sent over the wire. */
export interface CoSigned {
  readonly wire: string;
  readonly signature: Signature;
  /** Its recent blockhash: once invalid with the transaction unseen, it can never land. */
  readonly blockhash: string;
}

export type Simulation = "ok" | "blockhash-expired" | "failed";
/** `unknown`: sent, not confirmed in the wait; it may still land (x402's `settlement_pending`). */
export type Settlement = (
  | { readonly ok: true }
  | { readonly ok: false; readonly error: string; readonly unknown?: boolean }
) & {
  /** This call sent the transaction (its fee, if it landed, is this call's to count). */
  readonly sentNow?: boolean;
};

/** What a transaction the fee payer sent came to: landed, landed and failed (the fee is paid either way), or not known. */
export type SpendOutcome = "settled" | "failed-on-chain" | "unconfirmed";
/** Told once per transaction the fee payer sent, with the fee it pays if the transaction landed. */
export type OnSpend = (outcome: SpendOutcome, lamports: bigint) => void;

export const FAILED_ON_CHAIN = "the transaction failed on chain";
const NOT_SENT_AGAIN = "not sent again";

/**
 * Whether a settlement's outcome is final: confirmed, failed on chain, or a retry not sent.
 * Anything else (not confirmed in the wait, a send the RPC refused with no status to judge it
 * by) may still land, so its pending entry stays for the reconciler.
 */
export const isFinal = (settled: Settlement): boolean =>
  settled.ok || settled.error === FAILED_ON_CHAIN || settled.error.startsWith(NOT_SENT_AGAIN);

/** The x402 offer's optional `extra.recentBlockhash` and `lastValidBlockHeight`. */
export interface BlockhashHint {
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
}
/** A hint is offered while this fresh (a blockhash lives about 60-90 s on a cluster) and read again after REFRESH. */
const HINT_MAX_AGE_MS = 5_000;
const HINT_REFRESH_MS = 1_000;

const unavailable = (error: unknown) =>
  new ChainUnavailable({
    reason: "unreachable",
    message: error instanceof Error ? error.message : String(error),
  });

export const createFeePayer = (
  signer: KeyPairSigner,
  rpcUrl: string,
  onSpend: OnSpend = () => {},
  onRpcCall?: OnRpcCall,
  { confirmTimeoutMs = CONFIRM_TIMEOUT_MS }: { readonly confirmTimeoutMs?: number } = {},
) => {
  const rpc = countedSolanaRpc(rpcUrl, "sponsor", onRpcCall);
  // The settling RPC's recent blockhash, read at most once a second in the background.
  let hint: { readonly value: BlockhashHint; readonly at: number } | undefined;
  let reading = false;
  const readHint = async () => {
    if (reading) return;
    reading = true;
    try {
      const { value } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
      hint = {
        value: { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight },
        at: Date.now(),
      };
    } catch {
      // No hint then: clients fetch their own blockhash.
    } finally {
      reading = false;
    }
  };
  // A mint's decimals never change: read once per mint (the allow-list keeps them few).
  const decimals = new Map<string, Promise<number | undefined>>();
  /**
   * Runs the fully signed transaction without landing it; throws ChainUnavailable when the RPC
   * fails. Against the freshest state the RPC has ("processed"): a payer's balance already spent
   * by a transaction in flight is seen spent.
   */
  const simulate = async (cosigned: CoSigned): Promise<Simulation> => {
    const reply = await rpc
      .simulateTransaction(cosigned.wire as never, {
        encoding: "base64",
        sigVerify: true,
        commitment: "processed",
      })
      .send()
      .catch((error: unknown) => {
        throw unavailable(error);
      });
    const err = reply.value.err;
    if (err === null) return "ok";
    // Errors may hold bigints (custom program error codes).
    const text = JSON.stringify(err, (_, value) => (typeof value === "bigint" ? value.toString() : value));
    return text.includes("BlockhashNotFound") ? "blockhash-expired" : "failed";
  };
  return {
    address: signer.address as Address,
    /**
     * A blockhash this RPC (the one that settles) has seen, for the offer's hint: undefined when
     * none is fresh. Never waits: a stale one is read again in the background.
     */
    blockhashHint: (): BlockhashHint | undefined => {
      const age = hint === undefined ? Number.POSITIVE_INFINITY : Date.now() - hint.at;
      if (age > HINT_REFRESH_MS) void readHint();
      return age <= HINT_MAX_AGE_MS ? hint?.value : undefined;
    },
    /** Reads the hint now (at start, so the first 402 has one). */
    warmBlockhashHint: readHint,
    /** A mint's decimals as the chain has them (undefined: no such mint); throws ChainUnavailable when the RPC fails. */
    decimalsOf: (mint: Address): Promise<number | undefined> => {
      let known = decimals.get(mint);
      if (known === undefined) {
        known = fetchMaybeMint(rpc, mint).then(
          (account) => (account.exists ? account.data.decimals : undefined),
          (error: unknown) => {
            decimals.delete(mint);
            throw unavailable(error);
          },
        );
        decimals.set(mint, known);
      }
      return known;
    },
    cosign: async (transaction: Transaction): Promise<CoSigned> => {
      const signed = await partiallySignTransaction([signer.keyPair], transaction);
      const message = getCompiledTransactionMessageDecoder().decode(signed.messageBytes);
      return {
        wire: getBase64EncodedWireTransaction(signed),
        signature: getSignatureFromTransaction(signed),
        blockhash: message.lifetimeToken,
      };
    },
    simulate,
    /**
     * Lands the transaction and waits until it is confirmed or failed. When it may have been
     * sent before (`sentBefore`: a retry, e.g. after an instance died between settling and
     * crediting), one already on chain is settled without sending; that look searches the
     * whole history, since a validator's recent-status cache forgets a transaction after about
     * 150 blocks (a minute), long before a lapsed lease. A first submission skips it (nobody
     * else holds our co-signature). A send the RPC refuses (e.g. "already processed") is judged
     * by the status, searched in the history as well.
     */
    submit: async (
      cosigned: CoSigned,
      { sentBefore, fee }: { readonly sentBefore: boolean; readonly fee: bigint },
    ): Promise<Settlement> => {
      const statusOf = (searchTransactionHistory: boolean) =>
        rpc
          .getSignatureStatuses([cosigned.signature], { searchTransactionHistory })
          .send()
          .then(
            (reply) => reply.value[0] ?? null,
            () => undefined,
          );
      const landed = sentBefore ? settlementOf(await statusOf(true)) : undefined;
      if (landed !== undefined) return landed;
      // A retry not found on chain was last simulated long ago: simulate it again before it is
      // sent (the payer may have spent its balance since), so it cannot fail at our expense.
      if (sentBefore) {
        const simulated = await simulate(cosigned).catch(() => "failed" as const);
        if (simulated !== "ok") return { ok: false, error: `${NOT_SENT_AGAIN}: ${simulated} in simulation` };
      }
      const sent = await rpc
        .sendTransaction(cosigned.wire as never, { encoding: "base64", skipPreflight: true })
        .send()
        .then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
      const settled = await (async (): Promise<Settlement> => {
        const deadline = Date.now() + confirmTimeoutMs;
        while (Date.now() < deadline) {
          const status = await statusOf(sent !== undefined);
          if (sent !== undefined && status == null) return { ok: false, error: sent };
          const known = settlementOf(status);
          if (known !== undefined) return known;
          await Bun.sleep(CONFIRM_POLL_MS);
        }
        return sent === undefined
          ? { ok: false, error: "not confirmed in time", unknown: true }
          : { ok: false, error: sent };
      })();
      // Once per transaction this call sent (one found landed above was counted by its sender).
      if (sent === undefined) {
        if (settled.ok) onSpend("settled", fee);
        else if (settled.error === FAILED_ON_CHAIN) onSpend("failed-on-chain", fee);
        else onSpend("unconfirmed", 0n);
      }
      return { ...settled, sentNow: sent === undefined };
    },
    /**
     * Where a sent transaction stands (the reconciler's question): its blockhash's validity read
     * first, then its status in the whole history; throws ChainUnavailable when the RPC fails.
     */
    fate: async (signature: string, blockhash: string): Promise<Fate> => {
      const ask = async <T>(call: () => Promise<T>) =>
        call().catch((error: unknown) => {
          throw unavailable(error);
        });
      const valid = await ask(() =>
        rpc.isBlockhashValid(blockhash as never, { commitment: "confirmed" }).send(),
      );
      const reply = await ask(() =>
        rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send(),
      );
      return fateOf({ blockhashValid: valid.value, status: chainStatusOf(reply.value[0] ?? null) });
    },
  };
};

const chainStatusOf = (status: SignatureStatus | null): ChainFate["status"] => {
  if (status === null) return "none";
  if (status.err != null) return "failed";
  const known = settlementOf(status);
  return known === undefined ? "seen" : "confirmed";
};

interface SignatureStatus {
  readonly err: unknown;
  readonly confirmationStatus: string | null;
}

/** A status as a settlement: failed on chain, confirmed, or undefined (unknown or not yet confirmed). */
const settlementOf = (status: SignatureStatus | null | undefined): Settlement | undefined => {
  if (status == null) return undefined;
  if (status.err != null) return { ok: false, error: FAILED_ON_CHAIN };
  return status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized"
    ? { ok: true }
    : undefined;
};

export type FeePayer = ReturnType<typeof createFeePayer>;
