/**
 * A 402 advertises signing in beside paying (sign-in-with-x): the challenge goes into the x402
 * v2 PAYMENT-REQUIRED header's `extensions` (handed to the dialects when the 402 is built, so
 * the header is encoded once) and into the spec dialect's JSON body, so a client of either that
 * already paid can sign in with its wallet instead of paying again.
 */
import { SIGN_IN_WITH_X, type SignInChallenge } from "./wallet-sign-in.ts";

/** The `extensions` member of a 402 body, and what x402 v2's PAYMENT-REQUIRED adds last. */
export const signInExtensions = (challenge: SignInChallenge) => ({ [SIGN_IN_WITH_X]: challenge });
