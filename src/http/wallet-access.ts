/**
 * Which wallet's credits a request may spend: the wallet of its session (X-Wallet-Session, held
 * by the widget after a payment or a sign-in), else the wallet a SIGN-IN-WITH-X proof signs in
 * (an x402 client that paid before), else the wallet its identity last paid with (clients that
 * know nothing of sessions, such as the spec's, keep what they bought). A session or proof that
 * is refused is answered with its code, never ignored: the client must learn it is signed out.
 */
import type { Effect } from "effect";
import type { Context } from "hono";
import { SignInRefused } from "../../core/sign-in/sign-in-rules.ts";
import type { AppEnv } from "../hono-kit/app-env.ts";
import type { FailureLimiter } from "../hono-kit/failure-limiter.ts";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";
import { linkedWallet } from "../payments/sign-in/payer-link.ts";
import { SESSION_HEADER } from "../payments/sign-in/session-token.ts";
import {
  proofOfHeader,
  SIGN_IN_WITH_X,
  type SignInSettings,
  sessionWallet,
  verifyProof,
} from "../payments/sign-in/wallet-sign-in.ts";

export interface WalletAccessDeps {
  readonly runtime: AppRuntime;
  /** Absent: no sign-in is offered (SIGN-IN-WITH-X is refused, sessions still work). */
  readonly signIn: SignInSettings | undefined;
  /** Sign-in attempts per client (every attempt counts, not only failures). */
  readonly signInAttempts: FailureLimiter;
}

export type WalletAccess =
  | {
      readonly ok: true;
      readonly wallet: string | undefined;
      readonly via: "session" | "sign-in" | "payer" | "none";
    }
  | { readonly ok: false; readonly error: SignInRefused | Effect.Error<ReturnType<typeof sessionWallet>> };

/** Counts one sign-in attempt of the client; refused past the limit. */
export const countSignInAttempt = (limiter: FailureLimiter, identity: string): SignInRefused | undefined => {
  if (limiter.lockedFor(identity) > 0) return new SignInRefused({ reason: "too-many-attempts" });
  limiter.fail(identity);
  return undefined;
};

export const walletAccess = async (c: Context<AppEnv>, deps: WalletAccessDeps): Promise<WalletAccess> => {
  const token = c.req.header(SESSION_HEADER);
  if (token !== undefined) {
    const found = await runOutcome(deps.runtime, sessionWallet(token.trim()));
    return found.ok ? { ok: true, wallet: found.value, via: "session" } : { ok: false, error: found.error };
  }
  const proof = c.req.header(SIGN_IN_WITH_X);
  if (proof !== undefined) {
    if (deps.signIn === undefined)
      return { ok: false, error: new SignInRefused({ reason: "sign-in-not-offered" }) };
    const limited = countSignInAttempt(deps.signInAttempts, c.get("identity"));
    if (limited !== undefined) return { ok: false, error: limited };
    const signedIn = await runOutcome(deps.runtime, verifyProof(deps.signIn, proofOfHeader(proof)));
    return signedIn.ok
      ? { ok: true, wallet: signedIn.value, via: "sign-in" }
      : { ok: false, error: signedIn.error };
  }
  const linked = await runOutcome(deps.runtime, linkedWallet(c.get("identity")));
  if (!linked.ok) return { ok: false, error: linked.error };
  return { ok: true, wallet: linked.value, via: linked.value === undefined ? "none" : "payer" };
};
