/**
 * Reading a server's answer: the payment request of a 402 (the spec's snake_case body, extra
 * fields ignored) and the protocol's error object of a refusal. Explicit mode starts here.
 */
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { PaymentRequest, X402ErrorBody } from "../../../core/payments/x402.ts";
import { InvalidPaymentRequestError } from "./errors.ts";

const decodeRequest = Schema.decodeUnknownOption(PaymentRequest);
const decodeError = Schema.decodeUnknownOption(X402ErrorBody);

/** The body as JSON, or undefined; the response stays readable for the caller. */
const jsonOf = (response: Response): Promise<unknown> =>
  response
    .clone()
    .json()
    .catch(() => undefined);

/** The protocol's error object in a response body, when it has one. */
export const readX402Error = async (response: Response): Promise<X402ErrorBody | undefined> =>
  Option.getOrUndefined(decodeError(await jsonOf(response)));

/** The payment request of a 402; InvalidPaymentRequestError when the body is not one. */
export const readPaymentRequest = async (response: Response): Promise<PaymentRequest> => {
  const request = decodeRequest(await jsonOf(response));
  if (Option.isNone(request))
    throw new InvalidPaymentRequestError({
      message: `the ${response.status} response carries no valid payment request`,
    });
  return request.value;
};

/** Explicit mode: sends the request; a 402's payment request comes back parsed, for the caller to pay. */
export const fetchPaymentRequest = async (
  input: RequestInfo | URL,
  init?: RequestInit,
  fetchFn: typeof fetch = fetch,
): Promise<{ readonly response: Response; readonly paymentRequest: PaymentRequest | undefined }> => {
  const response = await fetchFn(input, init);
  return {
    response,
    paymentRequest: response.status === 402 ? await readPaymentRequest(response) : undefined,
  };
};
