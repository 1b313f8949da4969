/**
 * Signing in on MCP (x402 `sign-in-with-x`, whose spec names only the HTTP header): a priced tool
 * call spends a wallet's credits when it presents a session (`X-Wallet-Session`) or a sign-in
 * proof, either on the transport (the `SIGN-IN-WITH-X` header of the POST /mcp, base64 JSON as on
 * HTTP) or in the call's `_meta["sign-in-with-x"]` (the proof object, or the same base64 text),
 * the `_meta` proof winning. A proof is single use (its nonce is spent when it signs in), so a
 * client that calls often exchanges one for a session at POST /api/session. Judged by the chat's
 * rules and ceilings (src/sign-in/wallet-access.ts).
 */
import { SESSION_HEADER } from "../sign-in/session-token.ts";
import type { WalletCredentials } from "../sign-in/wallet-access.ts";
import { proofOfHeader, SIGN_IN_WITH_X } from "../sign-in/wallet-sign-in.ts";

/** The `_meta` key of a tool call's sign-in proof: the extension's own name. */
export const SIGN_IN_META = SIGN_IN_WITH_X;

/** What the MCP request's HTTP headers present. */
export const transportCredentials = (headers: Headers): WalletCredentials => {
  const session = headers.get(SESSION_HEADER) ?? undefined;
  const proof = headers.get(SIGN_IN_WITH_X);
  return { session, proof: proof === null ? undefined : { value: proofOfHeader(proof) } };
};

/** The transport's credentials with the call's `_meta` proof, when it carries one, in place of the header's. */
export const callCredentials = (
  transport: WalletCredentials,
  meta: Readonly<Record<string, unknown>> | undefined,
): WalletCredentials => {
  const proof = meta?.[SIGN_IN_META];
  if (proof === undefined) return transport;
  return { ...transport, proof: { value: typeof proof === "string" ? proofOfHeader(proof) : proof } };
};
