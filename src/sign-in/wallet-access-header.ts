/**
 * Which wallet's credits an HTTP request may spend: its X-Wallet-Session or SIGN-IN-WITH-X
 * header, read here and judged by src/sign-in/wallet-access.ts (shared with MCP).
 */
import type { Context } from "hono";
import type { AppEnv } from "../hono-kit/app-env.ts";
import { SESSION_HEADER } from "./session-token.ts";
import { type WalletAccess, type WalletAccessDeps, walletAccessOf } from "./wallet-access.ts";
import { proofOfHeader, SIGN_IN_WITH_X } from "./wallet-sign-in.ts";

export {
  countSignInAttempt,
  type WalletAccess,
  type WalletAccessDeps,
} from "./wallet-access.ts";

/** The request's wallet access; `payerLink` as walletAccessOf's. */
export const walletAccess = (
  c: Context<AppEnv>,
  deps: WalletAccessDeps,
  payerLink: "look-up" | "in-hold" = "look-up",
): Promise<WalletAccess> => {
  const proof = c.req.header(SIGN_IN_WITH_X);
  return walletAccessOf(
    {
      session: c.req.header(SESSION_HEADER),
      proof: proof === undefined ? undefined : { value: proofOfHeader(proof) },
    },
    c.env.identity,
    deps,
    payerLink,
  );
};
