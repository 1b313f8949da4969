/**
 * Paid credits belong to the wallet that paid (the transfer authority), not to the network a
 * visitor happens to be on. A wallet's credits are kept as a quota state of their own, under an
 * account name no client identity can take (identities are IP addresses), with no free
 * questions: free questions stay with the client identity. The paid daily cap applies to the
 * wallet's state as it does to any other, so it is per wallet.
 */
import { decodeBase58 } from "../base58.ts";
import type { QuotaLimits, QuotaView } from "../quota.ts";

const WALLET_ACCOUNT_PREFIX = "wallet:";

/** A Solana address: base58 of 32 bytes. */
export const isWalletAddress = (text: string): boolean =>
  text.length >= 32 && text.length <= 44 && decodeBase58(text)?.length === 32;

/** The store account of a wallet's credits; never equal to a client identity (an IP or a /64). */
export const walletAccount = (address: string): string => `${WALLET_ACCOUNT_PREFIX}${address}`;

/** A wallet's quota rules: the client's limits without free questions. */
export const walletLimits = (limits: QuotaLimits): QuotaLimits => ({ ...limits, freePerDay: 0 });

/**
 * What a client spending a wallet's credits sees: the free questions of its identity, and the
 * paid questions of both (the wallet's first, then any credits its identity held from before
 * credits followed the payer).
 */
export const combinedView = (client: QuotaView, wallet: QuotaView | undefined): QuotaView => {
  if (wallet === undefined) return client;
  const paid = client.paid + wallet.paid;
  return {
    remaining: client.free + paid,
    resetAt: client.resetAt,
    requiresPayment: client.requiresPayment && wallet.requiresPayment,
    free: client.free,
    paid,
  };
};

/**
 * Why a spend that tried the wallet first, then the client's identity, is refused: the wallet's
 * daily cap when the identity has nothing left either (so the client learns its credits come
 * back tomorrow, not that it must pay), else the identity's own reason. reserveQuery
 * (core/use-cases/spend-query.ts) and every store's WalletCredits.reserveAsPayer decide alike.
 */
export const fallbackRefusal = <W extends { readonly _tag: string }, I extends { readonly _tag: string }>(
  onWallet: W,
  onIdentity: I,
): W | I =>
  onWallet._tag === "PaidDailyCapReached" && onIdentity._tag === "QuotaExhausted" ? onWallet : onIdentity;
