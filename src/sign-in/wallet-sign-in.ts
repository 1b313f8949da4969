/**
 * Signing in with a wallet (x402 `sign-in-with-x`, Sign-In With Solana) and the browser sessions
 * that follow a payment or a sign-in. A challenge's nonce is sealed (core/sign-in/sealed-nonce.ts):
 * issuing it stores nothing. A proof is checked field by field against the configured public
 * origin and chain (core/sign-in/sign-in-rules.ts), then its nonce's seal and expiry, then its
 * ed25519 signature, then the wallet's sign-ins this hour and the creditless sign-ins everyone
 * shares (core/use-cases/count-sign-in.ts), and only then is its nonce written to the used set every instance shares: a forged proof cannot
 * burn someone else's challenge, and only a sign-in that succeeds writes anything.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { sealedNonceExpiry, sealNonce } from "../../core/sign-in/sealed-nonce.ts";
import {
  SIGN_IN_STATEMENT,
  SIGN_IN_TYPE,
  SIGN_IN_VERSION,
  SIGN_IN_WITH_X,
  SignInProof,
} from "../../core/sign-in/sign-in-message.ts";
import {
  CHALLENGE_TTL_MS,
  checkSignInFields,
  SESSION_TTL_MS,
  SignInRefused,
} from "../../core/sign-in/sign-in-rules.ts";
import { countSignIn, giveBackSignIn } from "../../core/use-cases/count-sign-in.ts";
import { isProofSigned } from "./proof-signature.ts";
import { hashSessionToken, isSessionTokenShaped, newSessionToken, newSignInNonce } from "./session-token.ts";

export { SIGN_IN_WITH_X };

/** Where sign-ins are bound: the configured public origin (never a request's Host) and the chain. */
export interface SignInSettings {
  readonly origin: string;
  readonly chainId: string;
  /** A hosted site's path (`/sites/<id>`): the URI a wallet signs names the site. */
  readonly basePath?: string | undefined;
}

/** A fresh challenge as the 402s and GET /api/session/challenge offer it (`extensions["sign-in-with-x"]`). */
export const issueChallenge = (settings: SignInSettings, path: string) =>
  Effect.gen(function* () {
    const seal = yield* RequestSeal;
    const now = yield* Clock.currentTimeMillis;
    const expiresAt = now + CHALLENGE_TTL_MS;
    const nonce = sealNonce(seal.mac, newSignInNonce(), expiresAt);
    const uri = `${settings.origin}${settings.basePath ?? ""}${path}`;
    return {
      info: {
        domain: new URL(settings.origin).host,
        uri,
        version: SIGN_IN_VERSION,
        nonce,
        issuedAt: new Date(now).toISOString(),
        expirationTime: new Date(expiresAt).toISOString(),
        statement: SIGN_IN_STATEMENT,
        resources: [uri],
      },
      supportedChains: [{ chainId: settings.chainId, type: SIGN_IN_TYPE, signatureScheme: "siws" }],
    };
  });

export type SignInChallenge = Effect.Success<ReturnType<typeof issueChallenge>>;

const refuse = (reason: SignInRefused["reason"]) => Effect.fail(new SignInRefused({ reason }));
const decodeProof = Schema.decodeUnknownResult(SignInProof);

/** The wallet a proof signs in, once its nonce is used; refused with the first rule it breaks. */
export const verifyProof = (settings: SignInSettings, raw: unknown) =>
  Effect.gen(function* () {
    const decoded = decodeProof(raw);
    if (Result.isFailure(decoded)) return yield* refuse("proof-malformed");
    const proof = decoded.success;
    const now = yield* Clock.currentTimeMillis;
    const broken = checkSignInFields(proof, { ...settings, now });
    if (broken !== undefined) return yield* refuse(broken);
    const seal = yield* RequestSeal;
    const nonceExpiresAt = sealedNonceExpiry(seal.mac, proof.nonce);
    if (nonceExpiresAt === undefined || nonceExpiresAt <= now) return yield* refuse("nonce-unknown");
    if (!(yield* Effect.promise(() => isProofSigned(proof)))) return yield* refuse("signature-invalid");
    const sessions = yield* WalletSessions;
    // A replayed (used) proof is refused before it is counted: it must not spend the wallet's sign-ins.
    if (yield* sessions.nonceUsed(proof.nonce, now)) return yield* refuse("nonce-unknown");
    const count = yield* countSignIn(proof.address, now);
    if (!count.counted) return yield* refuse("too-many-sign-ins");
    if (!(yield* sessions.useNonce(proof.nonce, nonceExpiresAt, now))) {
      // Another request used the nonce first: this one takes nothing of the shared budget.
      yield* giveBackSignIn(count, now);
      return yield* refuse("nonce-unknown");
    }
    return proof.address;
  });

/** The SIGN-IN-WITH-X header's proof (base64 of JSON); undefined when it is not one. */
export const proofOfHeader = (header: string): unknown => {
  if (header.length > 8192) return undefined;
  try {
    return JSON.parse(
      new TextDecoder().decode(Uint8Array.from(atob(header.trim()), (char) => char.charCodeAt(0))),
    );
  } catch {
    return undefined;
  }
};

/** A new session for the wallet: its token, to hand to the client, and when it ends. */
export const openSession = (wallet: string) =>
  Effect.gen(function* () {
    const sessions = yield* WalletSessions;
    const now = yield* Clock.currentTimeMillis;
    const token = newSessionToken();
    const expiresAt = now + SESSION_TTL_MS;
    yield* sessions.open(yield* Effect.promise(() => hashSessionToken(token)), wallet, expiresAt, now);
    return { token, expiresAt, wallet };
  });

/**
 * Signs in: a session for the proof's wallet. With `signOutOthers`, every earlier session of the
 * wallet is revoked first (a token that was stolen stops working).
 */
export const signIn = (settings: SignInSettings, raw: unknown, signOutOthers: boolean) =>
  Effect.gen(function* () {
    const wallet = yield* verifyProof(settings, raw);
    if (signOutOthers) {
      const sessions = yield* WalletSessions;
      yield* sessions.closeAll(wallet, yield* Clock.currentTimeMillis);
    }
    return yield* openSession(wallet);
  });

/** The wallet a session token stands for; refused when it is unknown, expired or revoked. */
export const sessionWallet = (token: string) =>
  Effect.gen(function* () {
    if (!isSessionTokenShaped(token)) return yield* refuse("session-unknown");
    const sessions = yield* WalletSessions;
    const found = yield* sessions.find(
      yield* Effect.promise(() => hashSessionToken(token)),
      yield* Clock.currentTimeMillis,
    );
    if (found.kind === "revoked") return yield* refuse("session-revoked");
    if (found.kind === "unknown") return yield* refuse("session-unknown");
    return found.wallet;
  });

/** Signs one session out (unknown tokens change nothing). */
export const signOut = (token: string) =>
  Effect.gen(function* () {
    if (!isSessionTokenShaped(token)) return;
    const sessions = yield* WalletSessions;
    yield* sessions.close(
      yield* Effect.promise(() => hashSessionToken(token)),
      yield* Clock.currentTimeMillis,
    );
  });
