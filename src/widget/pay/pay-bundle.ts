/**
 * The pay bundle (widget-pay.js), imported by the chat only when a visitor pays: wallets
 * through the Wallet Standard, Solana Pay requests with their QR code, and the wallet class the
 * demo and test wallets share.
 */

export { findSignInWallets, type SignInChoice } from "../sign-in/sign-in-wallets.ts";
export type { PayContext } from "./chain.ts";
export { keypairWallet } from "./keypair-wallet.ts";
export { solanaPayRequest, transferRequestUrl } from "./solana-pay.ts";
export { findWallets, type WalletChoice } from "./wallets.ts";

export type PayModule = typeof import("./pay-bundle.ts");
