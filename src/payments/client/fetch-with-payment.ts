/**
 * Automatic mode: a `fetch` that pays by itself. On a 402 it reads the payment request, checks
 * it against the options (price at most MaxPaymentAmount, exactly in base units; no local or
 * private endpoint or RPC unless AllowLocal; the wallet's network), renews it when it has
 * expired, pays (funds checked before anything is sent) and repeats the request with the
 * X-Payment-Authorization header. With AutoRetry it resends the same header while the server
 * says that may succeed (transfer not yet visible, a failed handler, 503).
 */
import * as Result from "effect/Result";
import { parseDecimalUnits } from "../../../core/payments/money.ts";
import { isExpired, PAY_MARGIN_MS, type PaymentRequest, requiredUnits } from "../../../core/payments/x402.ts";
import { AUTHORIZATION_HEADER } from "../../../core/payments/x402-receipt.ts";
import {
  InvalidPaymentRequestError,
  PaymentExpiredError,
  PaymentRequiredError,
  PaymentVerificationError,
} from "./errors.ts";
import { isLocalUrl } from "./local-endpoints.ts";
import { payPaymentRequest, type X402Wallet } from "./pay.ts";
import { readPaymentRequest, readX402Error } from "./payment-required.ts";

export interface AutoPayOptions {
  /** The most one request may cost, decimal (default "10.0"); compared exactly in base units. */
  readonly MaxPaymentAmount?: string;
  /** Resend the paid request while the server says it may succeed later (default true). */
  readonly AutoRetry?: boolean;
  /** Pay resources and use RPC endpoints on loopback/private addresses (default false). */
  readonly AllowLocal?: boolean;
  /** Asked before each payment; false declines it (PaymentRequiredError). */
  readonly confirm?: (request: PaymentRequest) => boolean | Promise<boolean>;
  /** Told of each confirmed transfer. */
  readonly onPaid?: (paid: { readonly request: PaymentRequest; readonly signature: string }) => void;
  readonly fetch?: typeof fetch;
  /** First wait between resends, doubling (default 500 ms). */
  readonly retryDelayMs?: number;
}

/** A wallet, or one chosen for each payment request (e.g. by its network or asset). */
export type WalletSource = X402Wallet | ((request: PaymentRequest) => X402Wallet | Promise<X402Wallet>);

export const DEFAULT_MAX_PAYMENT = "10.0";
/** Resends of one paid request, and payments of one call (a second only after an expiry). */
const MAX_RESENDS = 5;
const MAX_PAYMENTS = 2;
const MAX_RENEWALS = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wraps `fetch` (options.fetch or the global one) so it pays 402s by itself. */
export const wrapFetchWithPayment = (wallet: WalletSource, options: AutoPayOptions = {}) => {
  const fetchFn = options.fetch ?? fetch;
  const maxText = options.MaxPaymentAmount ?? DEFAULT_MAX_PAYMENT;
  const max = Result.getOrElse(parseDecimalUnits(maxText), (why) => {
    throw new TypeError(`MaxPaymentAmount "${maxText}": ${why}`);
  });
  const autoRetry = options.AutoRetry ?? true;
  const allowLocal = options.AllowLocal ?? false;
  const refuseLocal = (url: string, what: string) => {
    if (!allowLocal && isLocalUrl(url))
      throw new InvalidPaymentRequestError({
        message: `refusing to pay through the local or private ${what} ${new URL(url).host} (set AllowLocal to allow it)`,
      });
  };

  /** The checks before paying: price, endpoint, wallet. */
  const walletFor = async (request: PaymentRequest, endpoint: string): Promise<X402Wallet> => {
    const price = Result.getOrElse(requiredUnits(request), (why) => {
      throw new InvalidPaymentRequestError({ message: `max_amount_required: ${why}` });
    });
    if (price > max)
      throw new PaymentRequiredError({
        message: `the price ${request.max_amount_required} is above MaxPaymentAmount ${maxText}`,
        request,
      });
    refuseLocal(endpoint, "payment endpoint");
    const chosen = typeof wallet === "function" ? await wallet(request) : wallet;
    if (chosen.network !== request.network)
      throw new InvalidPaymentRequestError({
        message: `the payment request is on ${request.network}, the wallet pays on ${chosen.network}`,
      });
    refuseLocal(chosen.rpcUrl, "RPC endpoint");
    if (options.confirm !== undefined && !(await options.confirm(request)))
      throw new PaymentRequiredError({ message: "the payment was declined", request });
    return chosen;
  };

  /** The original request with the header, resent while the server says it may succeed. */
  const sendPaid = async (original: Request, header: string): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(original.headers);
      headers.set(AUTHORIZATION_HEADER, header);
      const response = await fetchFn(new Request(original.clone(), { headers }));
      const retryable =
        response.status >= 500 ||
        (response.status === 403 && (await readX402Error(response))?.Details.retryable === true);
      if (!autoRetry || !retryable || attempt >= MAX_RESENDS) return response;
      await sleep((options.retryDelayMs ?? 500) * 2 ** attempt);
    }
  };

  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const original = new Request(input, init);
    let response = await fetchFn(original.clone());
    let payments = 0;
    let renewals = 0;
    /** Asks again for a live payment request. */
    const renew = async (request: PaymentRequest) => {
      if (++renewals > MAX_RENEWALS)
        throw new PaymentExpiredError({
          message: `every renewed payment request had expired or had less than ${PAY_MARGIN_MS / 1000} s left`,
          request,
        });
      return fetchFn(original.clone());
    };
    while (response.status === 402) {
      const request = await readPaymentRequest(response);
      const refusal = await readX402Error(response);
      if (payments > 0 && refusal?.Code !== "PAYMENT_EXPIRED")
        throw new PaymentVerificationError({
          message: refusal?.Message ?? "the server asked for payment again",
          status: 402,
          details: refusal?.Details ?? {},
        });
      if (payments >= MAX_PAYMENTS)
        throw new PaymentExpiredError({ message: "the payment expired again after paying twice", request });
      // Less than the margin left: a fresh request, never a transfer that may land too late.
      if (isExpired(request, Date.now(), PAY_MARGIN_MS)) {
        response = await renew(request);
        continue;
      }
      const chosen = await walletFor(request, response.url || original.url);
      // Confirming may have taken a while: never pay a request that has expired meanwhile.
      if (isExpired(request, Date.now(), PAY_MARGIN_MS)) {
        response = await renew(request);
        continue;
      }
      const paid = await payPaymentRequest(request, chosen);
      payments++;
      options.onPaid?.({ request, signature: paid.signature });
      response = await sendPaid(original, paid.header);
    }
    const refusal =
      response.status === 403 || response.status === 400 ? await readX402Error(response) : undefined;
    if (refusal?.Code === "PAYMENT_VERIFICATION_FAILED")
      throw new PaymentVerificationError({
        message: refusal.Message,
        status: response.status,
        details: refusal.Details,
      });
    if (refusal?.Code === "INVALID_PAYMENT_REQUEST")
      throw new InvalidPaymentRequestError({ message: refusal.Message });
    return response;
  };
};
