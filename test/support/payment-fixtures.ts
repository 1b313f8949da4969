/** Re-exports of the parsed-transaction builders plus small helpers for payment tests. */
export { OTHER_MINT, parsedTx, payerUsdc, STRANGER, USDC_MINT, usdcPayment, WALLET } from "./parsed-tx.ts";

/** A SOL movement of `lamports` into `account`. */
export const lamportsTo = (account: string, lamports: number) => ({
  account,
  pre: 1_000_000,
  post: 1_000_000 + lamports,
});
