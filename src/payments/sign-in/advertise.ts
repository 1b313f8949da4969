/**
 * A 402 advertises signing in beside paying (sign-in-with-x): the challenge goes into the x402
 * v2 PAYMENT-REQUIRED header's `extensions` and into the spec dialect's JSON body, so a client
 * of either that already paid can sign in with its wallet instead of paying again.
 */
import type { PaymentRequired } from "@x402/core/types";
import { decodeHeaderJson, encodeHeaderJson } from "../v2/header-json.ts";
import { PAYMENT_REQUIRED_HEADER } from "../v2/wire.ts";
import { SIGN_IN_WITH_X, type SignInChallenge } from "./wallet-sign-in.ts";

/** The `extensions` member of a 402 body. */
export const signInExtensions = (challenge: SignInChallenge) => ({ [SIGN_IN_WITH_X]: challenge });

/** The 402's headers with the challenge added to PAYMENT-REQUIRED (when x402 v2 is offered). */
export const withSignInOffer = (
  headers: Readonly<Record<string, string>>,
  challenge: SignInChallenge,
): Record<string, string> => {
  const offered = headers[PAYMENT_REQUIRED_HEADER];
  if (offered === undefined) return { ...headers };
  // Our own header, written a moment ago by the dialect (wire.ts).
  const required = decodeHeaderJson(offered) as PaymentRequired;
  return {
    ...headers,
    [PAYMENT_REQUIRED_HEADER]: encodeHeaderJson({
      ...required,
      extensions: { ...required.extensions, ...signInExtensions(challenge) },
    }),
  };
};
