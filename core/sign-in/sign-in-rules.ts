/**
 * The checks of a sign-in proof that need no key and no store (sign-in-with-x, "Verification
 * Logic"): the domain and URI are the configured public origin's (never the request's Host),
 * the chain is ours, `issuedAt` is recent and not in the future, `expirationTime` and
 * `notBefore` hold at `now`. The nonce (single use, shared store) and the ed25519 signature are
 * checked after these by the caller; every failure is one `SignInRefused` with its reason.
 */
import * as Schema from "effect/Schema";
import { isWalletAddress } from "../payments/wallet-credits.ts";
import { SIGN_IN_TYPE, SIGN_IN_VERSION, type SignInProof } from "./sign-in-message.ts";

/** How long a challenge may be answered: its sealed nonce says until when, and is kept used as long. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** `issuedAt` older than this is refused (the spec's default, the challenge's own lifetime). */
export const MAX_ISSUED_AGE_MS = CHALLENGE_TTL_MS;
/** How long a browser session lasts after a payment or a sign-in. */
export const SESSION_TTL_MS = 30 * 86_400_000;

export const SignInRefusalReason = Schema.Literals([
  "proof-malformed",
  "wrong-domain",
  "wrong-uri",
  "wrong-chain",
  "issued-in-future",
  "issued-too-long-ago",
  "expired",
  "not-yet-valid",
  "nonce-unknown",
  "signature-invalid",
  "session-unknown",
  "session-revoked",
  "too-many-attempts",
  "too-many-sign-ins",
  "sign-in-not-offered",
]);
export type SignInRefusalReason = typeof SignInRefusalReason.Type;

export class SignInRefused extends Schema.TaggedError<SignInRefused>()("SignInRefused", {
  reason: SignInRefusalReason,
}) {}

export interface SignInExpectation {
  /** The configured public origin, e.g. https://chat.example.com. */
  readonly origin: string;
  /** CAIP-2 id of the chain the service takes payments on. */
  readonly chainId: string;
  /** A hosted site's path on that origin (`/sites/<id>`): its URIs are under it, so a wallet shows which site. */
  readonly basePath?: string | undefined;
  readonly now: number;
}

const originOf = (uri: string): string | undefined => (URL.canParse(uri) ? new URL(uri).origin : undefined);
/** Whether the URI is on the origin and, for a hosted site, under its path. */
const uriServed = (uri: string, expect: SignInExpectation): boolean =>
  originOf(uri) === expect.origin &&
  (expect.basePath === undefined || new URL(uri).pathname.startsWith(`${expect.basePath}/`));
const hostOf = (origin: string): string => new URL(origin).host;
/** ISO 8601 text to epoch ms; NaN when it is not a date. */
const instant = (text: string): number => Date.parse(text);

/** The first rule the proof breaks, or undefined when only the nonce and signature remain to check. */
export const checkSignInFields = (
  proof: SignInProof,
  expect: SignInExpectation,
): SignInRefusalReason | undefined => {
  if (proof.version !== SIGN_IN_VERSION || proof.type !== SIGN_IN_TYPE || !isWalletAddress(proof.address))
    return "proof-malformed";
  if (proof.domain !== hostOf(expect.origin)) return "wrong-domain";
  if (!uriServed(proof.uri, expect)) return "wrong-uri";
  if (proof.chainId !== expect.chainId) return "wrong-chain";
  const issuedAt = instant(proof.issuedAt);
  if (Number.isNaN(issuedAt)) return "proof-malformed";
  if (issuedAt > expect.now) return "issued-in-future";
  if (expect.now - issuedAt > MAX_ISSUED_AGE_MS) return "issued-too-long-ago";
  if (proof.expirationTime !== undefined) {
    const expires = instant(proof.expirationTime);
    if (Number.isNaN(expires)) return "proof-malformed";
    if (expires <= expect.now) return "expired";
  }
  if (proof.notBefore !== undefined) {
    const notBefore = instant(proof.notBefore);
    if (Number.isNaN(notBefore)) return "proof-malformed";
    if (notBefore > expect.now) return "not-yet-valid";
  }
  return undefined;
};

/** CAIP-2 ids of the public Solana clusters (the genesis hash prefix), and the local demo chain's name. */
const CHAIN_IDS = {
  "mainnet-beta": "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  devnet: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  localnet: "solana:localnet",
} as const;

/** The chain a sign-in names: x402 v2's payment network when it is offered (clients match on it), else the cluster's id. */
export const signInChainId = (network: keyof typeof CHAIN_IDS, paymentNetwork?: string): string =>
  paymentNetwork ?? CHAIN_IDS[network];
