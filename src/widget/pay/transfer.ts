/**
 * The USDC transfer the widget asks a wallet to sign: create the recipient's token account if
 * needed, `transferChecked` of the chosen amount, and our memo (the payer binding), as an
 * unsigned v0 transaction in wire bytes, which is what the Wallet Standard features take.
 */
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { usdcTransferInstructions } from "../../solana/usdc-transfer.ts";
import { type PayContext, relayRpc } from "./chain.ts";

// Not imported from core/payments/money.ts: that module brings Effect, far too big for a browser bundle.
const USDC_DECIMALS = 6;

/**
 * 0.05 -> 50000n: amounts are the panel's choices (payment info's `amounts`), whole questions at
 * the site's price, so at most 6 decimals: rounding to the base unit only drops float noise.
 */
export const usdcUnits = (amount: number): bigint => BigInt(Math.round(amount * 1_000_000));

/** 0.012 -> "0.012", 0.1 -> "0.10": exact decimal text of an amount, at least two decimals. */
export const usdcText = (amount: number): string => {
  const units = usdcUnits(amount);
  const fraction = (units % 1_000_000n).toString().padStart(USDC_DECIMALS, "0").replace(/0+$/, "");
  return `${units / 1_000_000n}.${fraction.padEnd(2, "0")}`;
};

export const buildTransfer = async (
  context: PayContext,
  payer: Address,
  amount: number,
): Promise<Uint8Array> => {
  const signer = createNoopSigner(payer);
  const instructions = await usdcTransferInstructions({
    payer: signer,
    from: signer,
    to: address(context.payment.recipient),
    mint: address(context.payment.usdcMint),
    units: usdcUnits(amount),
    decimals: USDC_DECIMALS,
    memo: context.payment.memo,
  });
  const { value: lifetime } = await relayRpc(context.apiUrl)
    .getLatestBlockhash({ commitment: "confirmed" })
    .send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(signer, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash(lifetime, draft),
    (draft) => appendTransactionMessageInstructions(instructions, draft),
  );
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)));
};
