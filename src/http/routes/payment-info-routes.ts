/** GET /api/payment/info: how to pay this site, with the caller's own memo reference. */
import * as Effect from "effect/Effect";
import { Hono } from "hono";
import { callerReference } from "../../../core/payments/memo-reference.ts";
import { PaymentSettings, type PaymentTerms } from "../../../core/payments/payment-settings.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { type AppRuntime, runOutcome, whenReady } from "../../hono-kit/run-effect.ts";
import { callerInfo, type SiteTerms, siteTerms } from "../../payments/payment-info.ts";
import { errorResponse } from "../error-response.ts";

export const paymentInfoRoutes = (runtime: AppRuntime, paidDailyCap: number) => {
  // The site's terms are its runtime's for its life: worked out once per base path it is asked under.
  const sites = new Map<string, SiteTerms>();
  const termsAt = (terms: PaymentTerms, basePath: string) => {
    let site = sites.get(basePath);
    if (site === undefined || site.terms !== terms) {
      site = siteTerms(terms, basePath);
      sites.set(basePath, site);
    }
    return site;
  };
  const infoFor = (identity: string, basePath: string) =>
    Effect.gen(function* () {
      const terms = yield* PaymentSettings;
      const reference = yield* callerReference(identity);
      return callerInfo(termsAt(terms, basePath), reference);
    });
  return new Hono<AppEnv>().get("/", (c) =>
    whenReady(runOutcome(runtime, infoFor(c.env.identity, c.env.basePath)), (outcome) =>
      outcome.ok ? c.json(outcome.value) : errorResponse(c, outcome.error, paidDailyCap),
    ),
  );
};
