/**
 * free-questions-across-sites never cuts one site's own free questions (its limit is at least the
 * largest of the service's sites, which every site reads, the default one too, and which a reload
 * of the sites file takes again), and declines-per-client refuses a client's questions once its
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
  beta: docsFolder({ "beta.md": "# Quuxly\n\nQuuxly shards every widget table by tenant.\n" }),
};
const QUESTION = "What level does the Zorblax frobnicator take?";

const alpha = (freeQueries: number) => ({
  definition: siteDefinition("alpha", { docs: { kind: "folder", path: docs.alpha }, freeQueries }),
  folder: docs.alpha,
});
const DEFAULT_QUESTION = "How do I start the service?";

let service: SitesService;
beforeAll(async () => {
  service = await buildSitesApp({
    // The default site gives 3 free questions (the service's default), alpha 25.
    sites: [alpha(25)],
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

  const freeOn = async (path: string, from: string) =>
    ((await (await service.call(path, {}, from)).json()) as { free: number }).free;

  test("the default site reads the same cross-site cap: 23 free answers on alpha leave it 2 of its 3, then 402", async () => {
    const from = "198.51.100.81";
    for (let i = 0; i < 23; i++)
      expect((await service.ask("/sites/alpha/api/chat", QUESTION, from)).status).toBe(200);
    expect(await freeOn("/api/status", from)).toBe(2);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await service.ask("/api/chat", DEFAULT_QUESTION, from)).status);
    expect(statuses).toEqual([200, 200, 402]);
  });

  // Last: it reloads the sites file.
  test("a reload raising a site's free questions lifts the cross-site cap on every site, the default one too", async () => {
    const from = "198.51.100.82";
    for (let i = 0; i < 25; i++)
      expect((await service.ask("/sites/alpha/api/chat", QUESTION, from)).status).toBe(200);
    expect(await freeOn("/api/status", from)).toBe(0);
    // A site giving 30 joins: the cap is 30 everywhere, so 5 are left across sites.
    const beta = siteDefinition("beta", { docs: { kind: "folder", path: docs.beta }, freeQueries: 30 });
    await service.sites.apply({ sites: [alpha(25).definition, beta] });
    expect(await freeOn("/sites/beta/api/status", from)).toBe(5);
    expect(await freeOn("/sites/alpha/api/status", from)).toBe(0);
    expect(await freeOn("/api/status", from)).toBe(3);
    expect((await service.ask("/api/chat", DEFAULT_QUESTION, from)).status).toBe(200);
  });
});
