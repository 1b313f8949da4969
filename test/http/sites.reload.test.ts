/**
 * A changed sites file applied to a running service: a new site is served, a changed one
 * serves its new settings over the same store (the memory store's counts are not lost), a
 * removed one is a 404 at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const NEW_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const alphaDocs = docsFolder({ "a.md": "# Alpha\n\nAlpha widgets are tuned with the alpha knob.\n" });
const gammaDocs = docsFolder({ "g.md": "# Gamma\n\nGamma rays are filtered by the gamma shield.\n" });

describe("hosted sites: a changed sites file", () => {
  let service: Awaited<ReturnType<typeof buildSitesApp>>;
  const alpha = siteDefinition("alpha", { freeQueries: 3, docs: { kind: "folder", path: alphaDocs } });
  const beta = siteDefinition("beta", { docs: { kind: "folder", path: alphaDocs } });
  beforeAll(async () => {
    service = await buildSitesApp({
      defaultDocs: docsFolder({ "d.md": "# Default\n\nThe default site.\n" }),
      sites: [
        { definition: alpha, folder: alphaDocs },
        { definition: beta, folder: alphaDocs },
      ],
    });
  });
  afterAll(() => service?.dispose());

  const remaining = async (path: string, from: string) =>
    ((await (await service.call(path, {}, from)).json()) as { remaining: number }).remaining;

  test("a new site is served, a changed one keeps its counts, a removed one is gone", async () => {
    const from = "198.51.100.9";
    expect((await service.ask("/sites/alpha/api/chat", "How are alpha widgets tuned?", from)).status).toBe(
      200,
    );
    expect(await remaining("/sites/alpha/api/status", from)).toBe(2);
    expect((await service.call("/sites/gamma/api/status")).status).toBe(404);

    await service.sites.apply({
      sites: [
        { ...alpha, wallet: NEW_WALLET, title: "Alpha, renamed" },
        siteDefinition("gamma", { docs: { kind: "folder", path: gammaDocs } }),
      ],
    });

    // Changed: the new wallet, the same store (the question asked before still counts).
    expect(JSON.stringify(await (await service.call("/sites/alpha/api/payment/info")).json())).toContain(
      NEW_WALLET,
    );
    expect(await remaining("/sites/alpha/api/status", from)).toBe(2);
    // Added: indexed at once from its folder, answering from its docs.
    const gamma = await service.ask("/sites/gamma/api/chat", "What filters gamma rays?", from);
    expect(gamma.status).toBe(200);
    expect(JSON.stringify(await gamma.json())).toContain("gamma shield");
    // Removed: unknown from now on.
    const gone = await service.call("/sites/beta/api/status");
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { code: string }).code).toBe("SITE_NOT_FOUND");
  });

  test("a host name a change adds is served at once, though it was refused before", async () => {
    const asHost = () => service.call("/api/status", { headers: { Host: "docs.gamma.test" } });
    expect((await asHost()).status).toBe(403);
    await service.sites.apply({
      sites: [
        siteDefinition("gamma", { docs: { kind: "folder", path: gammaDocs }, hosts: ["docs.gamma.test"] }),
      ],
    });
    expect((await asHost()).status).toBe(200);
    await service.sites.apply({
      sites: [siteDefinition("gamma", { docs: { kind: "folder", path: gammaDocs } })],
    });
    expect((await asHost()).status).toBe(403);
  });
});
