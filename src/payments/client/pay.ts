/**
 * Explicit mode, step by step: pay a payment request with a transfer (transferChecked of the
 * exact price with the memo `x402:<payment_id>`, creating the recipient's token account if
 * needed), wait until it is confirmed, and build the signed X-Payment-Authorization header.
 * Funds are checked before anything is sent. Only fetch, Web Crypto and @solana/kit: this runs
 * on Bun, Node, Deno and in browsers.
 */
import {
  type Address,
  address,
  createSolanaRpc,
  type MessagePartialSigner,
  type Signature,
  type TransactionSigner,
} from "@solana/kit";
import { fetchMaybeMint, fetchMaybeToken, getTokenSize } from "@solana-program/token";
import * as Result from "effect/Result";
import { formatUnits, USDC_DECIMALS } from "../../../core/payments/money.ts";
import type { X402Network } from "../../../core/payments/network.ts";
import {
  encodeAuthorizationHeader,
  isExpired,
  PAY_MARGIN_MS,
  type PaymentAuthorization,
  type PaymentRequest,
  paymentMemo,
  requiredUnits,
} from "../../../core/payments/x402.ts";
import {
  associatedTokenAccount,
  signAndSend,
  usdcTransferInstructions,
  waitForStatus,
} from "../../solana/usdc-transfer.ts";
import { signAuthorization } from "../authorization-signature.ts";
import {
  InsufficientFundsError,
  InvalidPaymentRequestError,
  PaymentExpiredError,
  TransactionBroadcastError,
} from "./errors.ts";

/** Who pays, on which network, through which RPC. */
export interface X402Wallet {
  /** Pays the fee and the tokens, and signs the authorization (a KeyPairSigner, or a wallet's). */
  readonly signer: TransactionSigner & MessagePartialSigner;
  readonly network: X402Network;
  readonly rpcUrl: string;
}

/** A base fee of one signature, in lamports. */
const SIGNATURE_FEE = 5_000n;
const sol = (lamports: bigint) => (Number(lamports) / 1e9).toString();

/** The transfer's instructions, after checking the mint and that the wallet can pay. */
const plannedTransfer = async (request: PaymentRequest, wallet: X402Wallet) => {
  // A transfer started this late may land after the deadline and its grace: ask for a new request.
  if (isExpired(request, Date.now(), PAY_MARGIN_MS))
    throw new PaymentExpiredError({
      message: `less than ${PAY_MARGIN_MS / 1000} s left before expires_at: not paid, ask for a new payment request`,
      request,
    });
  const units = Result.getOrElse(requiredUnits(request), (why) => {
    throw new InvalidPaymentRequestError({ message: `max_amount_required: ${why}` });
  });
  const rpc = createSolanaRpc(wallet.rpcUrl);
  const mint = address(request.asset_address);
  const mintAccount = await fetchMaybeMint(rpc, mint);
  if (!mintAccount.exists || mintAccount.data.decimals !== USDC_DECIMALS)
    throw new InvalidPaymentRequestError({
      message: `asset ${mint} is not a ${USDC_DECIMALS}-decimal token mint on ${wallet.network}`,
    });
  const tokenProgram = mintAccount.programAddress;
  const owner = wallet.signer.address;
  const to: Address = address(request.payment_address);
  const source = await associatedTokenAccount(owner, mint, tokenProgram);
  const [held, destination, lamports] = await Promise.all([
    fetchMaybeToken(rpc, source),
    fetchMaybeToken(rpc, await associatedTokenAccount(to, mint, tokenProgram)),
    rpc.getBalance(owner).send(),
  ]);
  const available = held.exists ? held.data.amount : 0n;
  if (available < units)
    throw new InsufficientFundsError({
      message: `the wallet holds ${formatUnits(available)}, the payment needs ${formatUnits(units)}`,
      asset: "token",
      required: formatUnits(units),
      available: formatUnits(available),
    });
  const rent = destination.exists
    ? 0n
    : await rpc.getMinimumBalanceForRentExemption(BigInt(getTokenSize())).send();
  const needed = SIGNATURE_FEE + rent;
  if (lamports.value < needed)
    throw new InsufficientFundsError({
      message: `the wallet holds ${sol(lamports.value)} SOL, the fee${rent > 0n ? " and the recipient's token account" : ""} need ${sol(needed)}`,
      asset: "SOL",
      required: sol(needed),
      available: sol(lamports.value),
    });
  const instructions = await usdcTransferInstructions({
    payer: wallet.signer,
    from: wallet.signer,
    to,
    mint,
    units,
    decimals: USDC_DECIMALS,
    memo: paymentMemo(request.payment_id),
    tokenProgram,
    source,
  });
  return { rpc, instructions };
};

/** Sends the transfer that pays `request` and waits until it is confirmed; its signature. */
export const createTransfer = async (
  request: PaymentRequest,
  wallet: X402Wallet,
  options: { readonly confirmTimeoutMs?: number } = {},
): Promise<Signature> => {
  const { rpc, instructions } = await plannedTransfer(request, wallet);
  const signature = await signAndSend(rpc, wallet.signer, instructions).catch((cause: unknown) => {
    throw new TransactionBroadcastError({
      message: `the transfer could not be sent: ${cause instanceof Error ? cause.message : String(cause)}`,
    });
  });
  const failure = await waitForStatus(rpc, signature, {
    commitment: "confirmed",
    timeoutMs: options.confirmTimeoutMs ?? 60_000,
  }).catch(() => "not confirmed in time");
  if (failure !== null)
    throw new TransactionBroadcastError({
      message: `the transfer failed: ${typeof failure === "string" ? failure : JSON.stringify(failure)}`,
      signature,
    });
  return signature;
};

/** The signed authorization for a confirmed transfer, and its header value. */
export const buildAuthorization = async (
  request: PaymentRequest,
  wallet: X402Wallet,
  transactionHash: string,
  now: Date = new Date(),
): Promise<{ readonly authorization: PaymentAuthorization; readonly header: string }> => {
  const unsigned = {
    payment_id: request.payment_id,
    actual_amount: request.max_amount_required,
    payment_address: request.payment_address,
    asset_address: request.asset_address,
    network: request.network,
    timestamp: now.toISOString(),
    public_key: wallet.signer.address,
    transaction_hash: transactionHash,
  };
  const authorization = { ...unsigned, signature: await signAuthorization(wallet.signer, unsigned) };
  return { authorization, header: encodeAuthorizationHeader(authorization) };
};

/** Pays `request`: the transfer, its confirmation, and the header to repeat the request with. */
export const payPaymentRequest = async (request: PaymentRequest, wallet: X402Wallet) => {
  const signature = await createTransfer(request, wallet);
  return { signature, ...(await buildAuthorization(request, wallet, signature)) };
};
