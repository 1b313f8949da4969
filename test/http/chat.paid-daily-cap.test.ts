/**
 * A signed-in wallet that has spent its daily paid cap (paid-daily-cap) is told so: 429
 * PAID_DAILY_CAP_REACHED with Retry-After, never a 402 offering a payment (paying would not
 * help: the cap, not the credits, is what is spent). Its client's own free question is still
 * answered first; and when the client's free questions across sites (free-questions-across-sites)
 * were spent on another site, that free question is refused too, and the answer is still the
 * cap's 429. On the memory store and on one Redis shared by two instances.
 */
import { expect, test } from "bun:test";
import { generateKeyPairSigner } from "@solana/kit";
import * as Effect from "effect/Effect";
import { walletAccount } from "../../core/payments/wallet-credits.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { SESSION_HEADER } from "../../src/sign-in/session-token.ts";
import { describeOnStores, QUESTIONS, sampleSites } from "../support/hosted-sites.ts";
import { challengeOf, proofFor, signInWith } from "../support/sign-in-client.ts";
import type { SitesService } from "../support/sites-app.ts";

const CAP = 2;
const QUESTION = "How do I start the service?";
const ALPHA_QUESTION = QUESTIONS.alpha;
// Each site gives 3 free questions a day, and 3 across sites: three on alpha spend them.
const { defaultDocs, sites } = sampleSites(["alpha"], () => ({ freeQueries: 3 }));
const options = () => ({
  defaultDocs,
  sites,
  ceilings: { "paid-daily-cap": CAP, "free-questions-across-sites": 3 },
});

let receipts = 0;

describeOnStores("a wallet past its daily paid cap (%s)", options, (instances) => {
  /** A wallet holding 5 credits on the default site, signed in from `from`: its session's token. */
  const signedIn = async (from: string) => {
    const wallet = await generateKeyPairSigner();
    const { one } = instances;
    await one.runtime.runPromise(
      Effect.flatMap(PaymentStore, (payments) =>
        payments.claim(`sig-cap-${++receipts}`, walletAccount(wallet.address), 5, Date.now()),
      ),
    );
    // The sign-in helpers take a client whose calls answer a promise.
    const client = {
      call: async (path: string, init?: RequestInit, at?: string) => one.call(path, init, at),
    };
    const response = await signInWith(client, await proofFor(wallet, await challengeOf(client, from)), from);
    expect(response.status).toBe(200);
    return ((await response.json()) as { session: { token: string } }).session.token;
  };
  const ask = async (on: SitesService, path: string, question: string, from: string, token?: string) => {
    const response = await on.ask(
      path,
      question,
      from,
      token === undefined ? {} : { [SESSION_HEADER]: token },
    );
    const body = (await response.json()) as Record<string, unknown>;
    return { status: response.status, code: body.code, retryAfter: response.headers.get("Retry-After") };
  };
  const toMidnight = () =>
    Math.ceil((Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000 - Date.now()) / 1000);

  test("its client's free questions answer after the cap, then 429 PAID_DAILY_CAP_REACHED, not a 402", async () => {
    const { one, two } = instances;
    const from = "198.51.100.90";
    const token = await signedIn(from);
    const statuses: number[] = [];
    // Two paid by the wallet (its cap), then the client's three free questions of the site.
    for (let i = 0; i < CAP + 3; i++)
      statuses.push((await ask(i % 2 === 0 ? one : two, "/api/chat", QUESTION, from, token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refused = await ask(two, "/api/chat", QUESTION, from, token);
    expect([refused.status, refused.code]).toEqual([429, "PAID_DAILY_CAP_REACHED"]);
    expect(Math.abs(Number(refused.retryAfter) - toMidnight())).toBeLessThanOrEqual(1);
  });

  test("with its client's free questions across sites spent elsewhere: 429 PAID_DAILY_CAP_REACHED, not a 402", async () => {
    const { one, two } = instances;
    const from = "198.51.100.91";
    // The client's three free questions across sites, spent on alpha without the wallet.
    for (let i = 0; i < 3; i++)
      expect((await ask(i % 2 === 0 ? one : two, "/sites/alpha/api/chat", ALPHA_QUESTION, from)).status).toBe(
        200,
      );
    const token = await signedIn(from);
    for (let i = 0; i < CAP; i++)
      expect((await ask(i % 2 === 0 ? one : two, "/api/chat", QUESTION, from, token)).status).toBe(200);
    // The default site still has its three free questions, but the cross-site cap refuses them.
    for (const on of [one, two]) {
      const refused = await ask(on, "/api/chat", QUESTION, from, token);
      expect([refused.status, refused.code]).toEqual([429, "PAID_DAILY_CAP_REACHED"]);
      expect(Math.abs(Number(refused.retryAfter) - toMidnight())).toBeLessThanOrEqual(1);
    }
    // Without the session the client meets the usual 402: it holds nothing a payment would not help.
    expect((await ask(one, "/api/chat", QUESTION, from)).status).toBe(402);
  });
});
