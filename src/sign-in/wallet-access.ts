/**
 * Which wallet's credits a request may spend, whatever carried its credentials (an HTTP header of
 * /api/chat, the MCP transport's headers or a tool call's `_meta`): the wallet of its session
 * (X-Wallet-Session, held after a payment or a sign-in), else the wallet a SIGN-IN-WITH-X proof
 * signs in (single use: its nonce is spent), else the wallet its identity last paid with (clients
 * that know nothing of sessions, such as the spec's, keep what they bought). A session or proof
 * that is refused is answered with its reason, never ignored: the client must learn it is signed out.
 */
import type * as Effect from "effect/Effect";
import { SignInRefused } from "../../core/sign-in/sign-in-rules.ts";
import type { FailureLimiter } from "../hono-kit/failure-limiter.ts";
import { type AppRuntime, runOutcome } from "../hono-kit/run-effect.ts";
import { linkedWallet } from "./payer-link.ts";
import { type SignInSettings, sessionWallet, verifyProof } from "./wallet-sign-in.ts";

export interface WalletAccessDeps {
  readonly runtime: AppRuntime;
  /** Absent: no sign-in is offered (SIGN-IN-WITH-X is refused, sessions still work). */
  readonly signIn: SignInSettings | undefined;
  /** Sign-in attempts per client (every attempt counts, not only failures). */
  readonly signInAttempts: FailureLimiter;
}

/** What a request presents: a session token, or a decoded sign-in proof (undefined: not decodable). */
export interface WalletCredentials {
  readonly session?: string | undefined;
  readonly proof?: { readonly value: unknown } | undefined;
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

/**
 * The wallet `credentials` (or, without any, `identity`'s payer link) give access to. A caller
 * whose next step is a hold (the chat) passes `payerLink: "in-hold"`: without credentials it gets
 * via "payer" and no wallet, and the hold reads the link itself (WalletCredits.reserveAsPayer),
 * one store call fewer.
 */
export const walletAccessOf = async (
  credentials: WalletCredentials,
  identity: string,
  deps: WalletAccessDeps,
  payerLink: "look-up" | "in-hold" = "look-up",
): Promise<WalletAccess> => {
  if (credentials.session !== undefined) {
    const found = await runOutcome(deps.runtime, sessionWallet(credentials.session.trim()));
    return found.ok ? { ok: true, wallet: found.value, via: "session" } : { ok: false, error: found.error };
  }
  if (credentials.proof !== undefined) {
    if (deps.signIn === undefined)
      return { ok: false, error: new SignInRefused({ reason: "sign-in-not-offered" }) };
    const limited = countSignInAttempt(deps.signInAttempts, identity);
    if (limited !== undefined) return { ok: false, error: limited };
    const signedIn = await runOutcome(deps.runtime, verifyProof(deps.signIn, credentials.proof.value));
    return signedIn.ok
      ? { ok: true, wallet: signedIn.value, via: "sign-in" }
      : { ok: false, error: signedIn.error };
  }
  if (payerLink === "in-hold") return { ok: true, wallet: undefined, via: "payer" };
  const linked = await runOutcome(deps.runtime, linkedWallet(identity));
  if (!linked.ok) return { ok: false, error: linked.error };
  return { ok: true, wallet: linked.value, via: linked.value === undefined ? "none" : "payer" };
};
