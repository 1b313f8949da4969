/**
 * The HTTP 402 client: explicit mode (fetchPaymentRequest -> payPaymentRequest, or
 * createTransfer + buildAuthorization) and automatic mode (wrapFetchWithPayment). Browser-safe:
 * fetch, Web Crypto and @solana/kit only.
 */
export { isAuthorizationSigned, signAuthorization } from "../authorization-signature.ts";
export * from "./errors.ts";
export {
  type AutoPayOptions,
  DEFAULT_MAX_PAYMENT,
  type WalletSource,
  wrapFetchWithPayment,
} from "./fetch-with-payment.ts";
export { isLocalUrl } from "./local-endpoints.ts";
export { buildAuthorization, createTransfer, payPaymentRequest, type X402Wallet } from "./pay.ts";
export { fetchPaymentRequest, readPaymentRequest, readX402Error } from "./payment-required.ts";
