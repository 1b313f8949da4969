/**
 * Pure verification of a USDC transfer to the service wallet, over a transaction fetched at
 * `confirmed` commitment. Amounts are summed over every token account the wallet owns for the
 * USDC mint (post - pre; an account created in the same transaction has no pre balance), so
 * split transfers and several token accounts count exactly once each.
 */
import * as Result from "effect/Result";
import { type BaseUnits, minimumAccepted, USDC_DECIMALS } from "./money.ts";
import { memosOf, type ParsedTransaction, type TokenBalance } from "./parsed-transaction.ts";
import { type PaymentRejected, rejected } from "./payment-rejected.ts";
import { memoSite, memosFor } from "./payment-settings.ts";
import { isFreshEnough } from "./signature-ledger.ts";

/** Our memo format: `<prefix><reference>`; foreign memos are ignored. */
export interface MemoRule {
  readonly prefix: string;
  /** The claimant's reference (sealed: memo-reference.ts). */
  readonly expected: string;
  /** The random reference the claimant was handed before references were sealed, while kept. */
  readonly legacy?: string | undefined;
  readonly required: boolean;
  /**
   * Prefixes of memos that bind a transfer to another way of paying (an x402 payment request):
   * such a transfer is refused here, so nobody can claim someone else's payment through it.
   */
  readonly reserved?: ReadonlyArray<string>;
}

export interface TransferExpectation {
  readonly usdcMint: string;
  readonly wallet: string;
  readonly claimed: BaseUnits;
  /**
   * Least amount the wallet must receive. Default: the claim minus 1% (POST /api/payment,
   * where the client states the amount); the HTTP 402 protocol sets the exact price.
   */
  readonly minimumReceived?: bigint;
  readonly now: number;
  readonly memo: MemoRule;
  /**
   * Epoch ms before which transfers are refused. Set when used signatures are kept only in
   * memory: after a restart the ledger is empty, so older transfers could be claimed again.
   */
  readonly notBefore?: number | undefined;
}

export interface VerifiedTransfer {
  readonly received: bigint;
  readonly blockTime: number;
}

interface TokenDelta {
  readonly mint: string;
  readonly owner: string | undefined;
  readonly decimals: number;
  readonly delta: bigint;
}

const byAccount = (balances: ReadonlyArray<TokenBalance>): Map<number, TokenBalance> | undefined => {
  const rows = new Map<number, TokenBalance>();
  for (const balance of balances) {
    if (rows.has(balance.accountIndex)) return undefined;
    rows.set(balance.accountIndex, balance);
  }
  return rows;
};

/**
 * Net change per token account (post - pre). Undefined when the balances contradict
 * themselves: an account listed twice, a mint or owner that changes, or an account with no
 * pre balance that already existed (held lamports before), which an honest node never reports.
 */
const tokenDeltas = (tx: ParsedTransaction): ReadonlyArray<TokenDelta> | undefined => {
  const meta = tx.meta;
  if (meta === null) return [];
  const pre = byAccount(meta.preTokenBalances);
  const post = byAccount(meta.postTokenBalances);
  if (pre === undefined || post === undefined) return undefined;
  const deltas: TokenDelta[] = [];
  for (const index of new Set([...pre.keys(), ...post.keys()])) {
    const before = pre.get(index);
    const after = post.get(index);
    const row = after ?? before;
    if (row === undefined) continue;
    if (
      before !== undefined &&
      after !== undefined &&
      (before.mint !== after.mint || before.owner !== after.owner)
    ) {
      return undefined;
    }
    if (before === undefined && (meta.preBalances[index] ?? 0) !== 0) return undefined;
    const amount = (balance: TokenBalance | undefined) => BigInt(balance?.uiTokenAmount.amount ?? "0");
    deltas.push({
      mint: row.mint,
      owner: row.owner,
      decimals: row.uiTokenAmount.decimals,
      delta: amount(after) - amount(before),
    });
  }
  return deltas;
};

const lamportsGainedBy = (tx: ParsedTransaction, wallet: string): number => {
  const index = tx.transaction.message.accountKeys.findIndex((key) => key.pubkey === wallet);
  if (index < 0 || tx.meta === null) return 0;
  return (tx.meta.postBalances[index] ?? 0) - (tx.meta.preBalances[index] ?? 0);
};

const checkMemo = (tx: ParsedTransaction, rule: MemoRule): PaymentRejected | undefined => {
  const memos = memosOf(tx).map((memo) => memo.trim());
  if (memos.some((memo) => rule.reserved?.some((prefix) => memo.startsWith(prefix))))
    return rejected("memo-reserved");
  // A reference another site of this service issued: the transfer is claimed there, and said so.
  const references = rule.legacy === undefined ? [rule.expected] : [rule.expected, rule.legacy];
  const site = memos
    .map((memo) => memoSite(memo, rule.prefix, ...references))
    .find((named) => named !== undefined);
  if (site !== undefined) return rejected("memo-other-site", { site });
  const accepted = references.flatMap((reference) => memosFor(rule.prefix, reference));
  const ours = memos.filter((memo) => memo.startsWith(rule.prefix) || accepted.includes(memo));
  if (ours.length === 0) return rule.required ? rejected("memo-required") : undefined;
  return ours.every((memo) => accepted.includes(memo)) ? undefined : rejected("memo-mismatch");
};

/** Runs every on-chain check; `tx` is undefined when the RPC does not know the signature. */
export const verifyTransfer = (
  tx: ParsedTransaction | undefined,
  expect: TransferExpectation,
): Result.Result<VerifiedTransfer, PaymentRejected> => {
  const claimed = expect.claimed;
  const refuse = (reason: PaymentRejected["reason"], received?: bigint) =>
    Result.fail(rejected(reason, received === undefined ? { claimed } : { claimed, received }));
  if (tx === undefined) return refuse("transaction-not-found");
  if (tx.meta === null || tx.blockTime === null) return refuse("transaction-not-confirmed");
  if (tx.meta.err !== null && tx.meta.err !== undefined) return refuse("transaction-failed");
  if (!isFreshEnough(tx.blockTime, expect.now)) return refuse("transaction-too-old");
  // Block times are whole seconds: compare at that granularity, or a transfer made in the
  // second the service started would look older than the start.
  if (expect.notBefore !== undefined && tx.blockTime < Math.floor(expect.notBefore / 1000)) {
    return refuse("transaction-before-ledger-start");
  }

  const deltas = tokenDeltas(tx);
  if (deltas === undefined) return refuse("balances-inconsistent");
  const toWallet = deltas.filter((row) => row.owner === expect.wallet && row.mint === expect.usdcMint);
  if (toWallet.some((row) => row.decimals !== USDC_DECIMALS)) {
    return refuse("mint-not-6-decimals");
  }
  const received = toWallet.reduce((sum, row) => sum + row.delta, 0n);
  if (received <= 0n) {
    if (deltas.some((row) => row.mint === expect.usdcMint && row.owner !== expect.wallet && row.delta > 0n)) {
      return refuse("paid-other-owner");
    }
    if (deltas.some((row) => row.owner === expect.wallet && row.mint !== expect.usdcMint && row.delta > 0n)) {
      return refuse("sent-other-token");
    }
    if (lamportsGainedBy(tx, expect.wallet) > 0) {
      return refuse("sent-sol");
    }
    return refuse("nothing-received");
  }
  if (received < (expect.minimumReceived ?? minimumAccepted(expect.claimed))) {
    return refuse("amount-insufficient", received);
  }
  const memoProblem = checkMemo(tx, expect.memo);
  // With what was received: a transfer refused for its memo may be listed for a refund.
  if (memoProblem !== undefined)
    return Result.fail(
      rejected(memoProblem.reason, {
        claimed,
        received,
        ...(memoProblem.site === undefined ? {} : { site: memoProblem.site }),
      }),
    );
  return Result.succeed({ received, blockTime: tx.blockTime });
};
