/**
 * The answer settings a hosted site may change: the product its prompt names, its
 * title (llms.txt) and the name catalogues list it under; the language model on or off. The
 * site's questions go through the real groq-sdk client to a loopback Groq.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { siteAppConfig } from "../../src/sites/site-config.ts";
import { CHAT_PATH, type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nThe service answers questions about its setup.\n" }),
  acme: docsFolder({
    "index.md": "# Acme front page\n\nWelcome to the Acme docs.\n",
    "rockets.md":
      "# Acme rockets\n\nAcme rockets are launched with the acme launch command after a countdown.\n",
  }),
  plain: docsFolder({
    "index.md": "# Plain front page\n\nWelcome.\n",
    "rockets.md":
      "# Plain rockets\n\nPlain rockets are launched with the plain launch command after a countdown.\n",
  }),
};

/** The system prompt of each chat request the model received. */
const systemPrompts = (groq: FakeGroq) =>
  groq.requests
    .filter((request) => request.path === CHAT_PATH)
    .map((request) => (request.body as { messages: Array<{ role: string; content: string }> }).messages)
    .map((messages) => messages.find((message) => message.role === "system")?.content ?? "");

describe("hosted sites: answer settings", () => {
  let groq: FakeGroq;
  let service: Awaited<ReturnType<typeof buildSitesApp>>;
  beforeAll(async () => {
    groq = await startFakeGroq();
    service = await buildSitesApp({
      defaultDocs: docs.default,
      llm: { apiKey: Redacted.make(groq.apiKey), model: "test-model", baseUrl: groq.baseUrl },
      sites: [
        {
          definition: siteDefinition("acme", { title: "Acme handbook", productName: "Acme Rockets" }),
          folder: docs.acme,
        },
        { definition: siteDefinition("plain"), folder: docs.plain },
        { definition: siteDefinition("quiet", { llm: false }), folder: docs.plain },
      ],
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await groq?.stop();
  });

  test("the prompt names the site's product; a site without one says 'this site'", async () => {
    groq.reset();
    const acme = await service.ask("/sites/acme/api/chat", "How are Acme rockets launched?", "198.51.100.20");
    expect(acme.status).toBe(200);
    const plain = await service.ask(
      "/sites/plain/api/chat",
      "How are plain rockets launched?",
      "198.51.100.21",
    );
    expect(plain.status).toBe(200);
    const [acmePrompt, plainPrompt] = systemPrompts(groq);
    expect(acmePrompt).toStartWith("You are the documentation assistant of Acme Rockets.");
    expect(plainPrompt).toStartWith("You are the documentation assistant of this site.");
  });

  test("a site with the language model off answers without it", async () => {
    groq.reset();
    const quiet = await service.ask(
      "/sites/quiet/api/chat",
      "How are plain rockets launched?",
      "198.51.100.22",
    );
    expect(quiet.status).toBe(200);
    expect(systemPrompts(groq)).toEqual([]);
  });

  test("llms.txt is headed by the site's title, else the docs' front page", async () => {
    const acme = await (await service.call("/sites/acme/llms.txt")).text();
    expect(acme.split("\n")[0]).toBe("# Acme handbook");
    const full = await (await service.call("/sites/acme/llms-full.txt")).text();
    expect(full.split("\n")[0]).toBe("# Acme handbook");
    const plain = await (await service.call("/sites/plain/llms.txt")).text();
    expect(plain.split("\n")[0]).toBe("# Plain front page");
  });
});

describe("siteAppConfig: the name catalogues list a site under", () => {
  const base = defaultConfig();
  const named = (fields: Parameters<typeof siteDefinition>[1]) =>
    siteAppConfig(base, siteDefinition("acme", fields)).x402Agents.service.serviceName;

  test("the product's name, else the title, else the service's", () => {
    expect(named({ productName: "Acme Rockets", title: "Acme handbook" })).toBe("Acme Rockets");
    expect(named({ title: "Acme handbook" })).toBe("Acme handbook");
    expect(named({})).toBe(base.x402Agents.service.serviceName);
  });

  test("a name a catalogue would drop (over 32 characters, not ASCII) is passed over", () => {
    expect(named({ productName: "Acme Rockets and Launch Pads International", title: "Acme" })).toBe("Acme");
    expect(named({ productName: "Açme" })).toBe(base.x402Agents.service.serviceName);
  });

  test("the product's name reaches the language model's settings; llm:false removes the model", () => {
    const withModel = { ...base, llm: { apiKey: Redacted.make("k"), model: "m", baseUrl: undefined } };
    expect(siteAppConfig(withModel, siteDefinition("acme", { productName: "Acme" })).llm?.productName).toBe(
      "Acme",
    );
    expect(siteAppConfig(withModel, siteDefinition("acme", { llm: false })).llm).toBeUndefined();
  });
});
