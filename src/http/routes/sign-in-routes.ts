/**
 * Wallet sessions: GET /api/session/challenge (a fresh Sign-In With Solana challenge), POST
 * /api/session (sign in with the signed proof: a session token for the wallet, handed only to
 * this caller, in the body, never in a URL), POST /api/session/sign-out (revokes the session of
 * X-Wallet-Session). Every challenge and sign-in counts against the client's sign-in attempts.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { type Context, Hono } from "hono";
import { SignInRefused } from "../../../core/sign-in/sign-in-rules.ts";
import { spenderView } from "../../../core/use-cases/spend-query.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { readBody } from "../../hono-kit/read-json.ts";
import { runOutcome } from "../../hono-kit/run-effect.ts";
import { SESSION_HEADER } from "../../sign-in/session-token.ts";
import { countSignInAttempt, type WalletAccessDeps } from "../../sign-in/wallet-access-header.ts";
import { issueChallenge, signIn, signOut } from "../../sign-in/wallet-sign-in.ts";
import { errorResponse } from "../error-response.ts";
import { SignInRequest } from "../schemas/requests.ts";

/** The resource a sign-in challenge of this route names. */
const SESSION_PATH = "/api/session";

export const sessionRoutes = (deps: WalletAccessDeps, paidDailyCap: number) => {
  const { runtime } = deps;
  /** The configured sign-in, after counting the attempt; a refusal response otherwise. */
  const admit = (c: Context<AppEnv>) => {
    if (deps.signIn === undefined)
      return {
        ok: false as const,
        response: errorResponse(c, new SignInRefused({ reason: "sign-in-not-offered" }), paidDailyCap),
      };
    const limited = countSignInAttempt(deps.signInAttempts, c.env.identity);
    if (limited !== undefined)
      return { ok: false as const, response: errorResponse(c, limited, paidDailyCap) };
    return { ok: true as const, settings: deps.signIn };
  };
  return new Hono<AppEnv>()

    .get("/challenge", async (c) => {
      const admitted = admit(c);
      if (!admitted.ok) return admitted.response;
      const challenge = await runOutcome(runtime, issueChallenge(admitted.settings, SESSION_PATH));
      if (!challenge.ok) return errorResponse(c, challenge.error, paidDailyCap);
      return c.json({ success: true, ...challenge.value }, 200, { "Cache-Control": "no-store" });
    })
    .post("/", async (c) => {
      const request = await readBody(c, SignInRequest, (problems) =>
        c.json(
          {
            success: false,
            error: "Invalid sign-in request",
            details: problems.join("; "),
            code: "INVALID_REQUEST",
          },
          400,
        ),
      );
      if (!request.ok) return request.response;
      const admitted = admit(c);
      if (!admitted.ok) return admitted.response;
      const { proof, signOutOthers } = request.value;
      const identity = c.env.identity;
      const signedIn = await runOutcome(
        runtime,
        Effect.flatMap(signIn(admitted.settings, proof, signOutOthers === true), (session) =>
          Effect.map(
            Effect.flatMap(Clock.currentTimeMillis, (now) =>
              spenderView({ identity, wallet: session.wallet }, now),
            ),
            (rateLimit) => ({ session, rateLimit }),
          ),
        ),
      );
      if (!signedIn.ok) {
        c.env.log.warn("sign-in refused", {
          identity,
          reason: signedIn.error._tag === "SignInRefused" ? signedIn.error.reason : signedIn.error._tag,
        });
        return errorResponse(c, signedIn.error, paidDailyCap);
      }
      const { session, rateLimit } = signedIn.value;
      c.env.log.info("signed in with a wallet", { identity, signedOutOthers: signOutOthers === true });
      return c.json(
        {
          success: true,
          session: { token: session.token, expiresAt: session.expiresAt },
          wallet: session.wallet,
          rateLimit,
        },
        200,
        { "Cache-Control": "no-store" },
      );
    })
    .post("/sign-out", async (c) => {
      const token = c.req.header(SESSION_HEADER);
      if (token !== undefined) {
        const closed = await runOutcome(runtime, signOut(token.trim()));
        if (!closed.ok) return errorResponse(c, closed.error, paidDailyCap);
      }
      return c.json({ success: true });
    });
};
