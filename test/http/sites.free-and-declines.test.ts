/**
 * free-questions-across-sites never cuts one site's own free questions (its limit is at least the
 * largest of the service's sites), and declines-per-client refuses a client's questions once its
 * declined questions of the day are spent: 429 TOO_MANY_DECLINES with Retry-After until UTC
 * midnight, nothing charged, before anything is retrieved.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildSitesApp, docsFolder, type SitesService, siteDefinition } from "../support/sites-app.ts";

const DAY = 86_400_000;
const clock = Date.now();
const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nStart the service with npm start.\n" }),
  alpha: docsFolder({ "alpha.md": "# Zorblax\n\nThe Zorblax frobnicator takes a level from one to nine.\n" }),
};
const QUESTION = "What level does the Zorblax frobnicator take?";

let service: SitesService;
beforeAll(async () => {
  service = await buildSitesApp({
    sites: [
      {
        definition: siteDefinition("alpha", { docs: { kind: "folder", path: docs.alpha }, freeQueries: 25 }),
        folder: docs.alpha,
      },
    ],
    defaultDocs: docs.default,
    ceilings: { "declines-per-client": 2 },
    now: () => clock,
  });
});
afterAll(() => service.dispose());

describe("free questions and declines", () => {
  test("a site giving 25 free questions answers 25 under the default cross-site cap of 20, then 402", async () => {
    const from = "198.51.100.78";
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++)
      statuses.push((await service.ask("/sites/alpha/api/chat", QUESTION, from)).status);
    expect(statuses).toEqual([...Array.from({ length: 25 }, () => 200), 402]);
  });

  test("past its declines of the day a client's question is 429 TOO_MANY_DECLINES, nothing charged", async () => {
    const from = "198.51.100.79";
    for (let i = 0; i < 2; i++) {
      const declined = await service.ask("/sites/alpha/api/chat", "xqzv plorb wunkle?", from);
      expect(declined.status).toBe(200);
      expect(((await declined.json()) as { rateLimit: { remaining: number } }).rateLimit.remaining).toBe(25);
    }
    const refused = await service.ask("/sites/alpha/api/chat", QUESTION, from);
    expect(refused.status).toBe(429);
    // The edge reads the wall clock for Retry-After: the seconds to the real UTC midnight.
    const toMidnight = Math.ceil((Math.floor(Date.now() / DAY) * DAY + DAY - Date.now()) / 1000);
    expect(Math.abs(Number(refused.headers.get("Retry-After")) - toMidnight)).toBeLessThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ success: false, code: "TOO_MANY_DECLINES" });
    const status = (await (await service.call("/sites/alpha/api/status", {}, from)).json()) as {
      rateLimit: { remaining: number };
    };
    expect(status.rateLimit.remaining).toBe(25);
    // Another client is not refused.
    expect((await service.ask("/sites/alpha/api/chat", QUESTION, "198.51.100.80")).status).toBe(200);
  });
});
