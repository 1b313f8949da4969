/**
 * What a visitor gets on a small product site, through the real service: answers the docs give,
 * declines of what nothing matches, questions in another language than the docs' (told so in
 * the visitor's language without a model; translated for retrieval and answered in it with
 * one), docs written in German, and a language model (an OpenAI-compatible server started here,
 * LLM_BASE_URL) judging what the rule would decline. Declines never cost a question.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { identityAddress } from "../../dev/eval/ask.ts";
import { indexLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { CHAT_PATH, type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import { REPO_ROOT, type ServiceProcess, startService } from "../support/service-process.ts";

const SITES = join(REPO_ROOT, "test/fixtures/eval/small-sites");
const NOT_COVERED = "The documentation does not cover this question.";

let work: string;
let fake: FakeGroq;
let english: ServiceProcess;
let german: ServiceProcess;
let withModel: ServiceProcess;
let client = 0;

const indexOf = async (folder: string) => {
  const indexPath = join(work, `${folder}.bin`);
  const config = defaultConfig({ vector: { kind: "local", indexPath } });
  await Effect.runPromise(
    ingest([join(SITES, folder)]).pipe(Effect.provide(withSettings(config, indexLayer()))),
  );
  return indexPath;
};

interface Reply {
  readonly status: number;
  readonly response: string;
  readonly declined: boolean;
  readonly remaining: number;
  readonly sources: ReadonlyArray<string>;
}

/** One question from a new client (its own address): 3 free questions before it. */
const ask = async (service: ServiceProcess, message: string, extra: Record<string, unknown> = {}) => {
  const response = await fetch(`${service.url}/api/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": identityAddress(++client) },
    body: JSON.stringify({ message, ...extra }),
  });
  const body = (await response.json()) as {
    response: string;
    declined: boolean;
    rateLimit: { remaining: number };
    sources: ReadonlyArray<{ source: string }>;
  };
  return {
    status: response.status,
    response: body.response,
    declined: body.declined,
    remaining: body.rateLimit.remaining,
    sources: body.sources.map((source) => source.source),
  } satisfies Reply;
};

const FREE = 3;
const env = (indexPath: string) => ({
  INDEX_PATH: indexPath,
  TRUST_PROXY: "loopback",
  RATE_LIMIT_FREE_QUERIES: String(FREE),
});

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "answers-languages-"));
  fake = await startFakeGroq();
  const [thermo, handbuch] = [await indexOf("thermo"), await indexOf("handbuch")];
  [english, german, withModel] = await Promise.all([
    startService({ env: env(thermo) }),
    startService({ env: env(handbuch) }),
    startService({
      env: { ...env(thermo), LLM_API_KEY: fake.apiKey, LLM_BASE_URL: fake.baseUrl, LLM_MODEL: "fake-model" },
    }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([english?.dispose(), german?.dispose(), withModel?.dispose()]);
  await fake?.stop();
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => fake.reset());

/** The system prompts of the model calls made since the last reset. */
const systemPrompts = () =>
  fake.requests
    .filter((request) => request.path === CHAT_PATH)
    .map((request) => {
      const messages = (request.body as { messages: ReadonlyArray<{ role: string; content: string }> })
        .messages;
      return messages.find((message) => message.role === "system")?.content ?? "";
    });

describe("a small English site without a language model", () => {
  test("answers what the docs answer, in words they never use, and charges it", async () => {
    const reply = await ask(english, "How high on the wall should I put it?");
    expect(reply).toMatchObject({ status: 200, declined: false, remaining: FREE - 1 });
    expect(reply.response).toContain("1.5 metres");
  });

  test("declines, free, what nothing in the docs matches", async () => {
    for (const question of ["What is the capital of Canada?", "Who wrote Pride and Prejudice?"]) {
      const reply = await ask(english, question);
      expect(reply).toMatchObject({ status: 200, declined: true, remaining: FREE });
      expect(reply.response).toContain("does not seem to cover");
    }
  });

  test("a question in German is told, in German, that the assistant answers in English; free", async () => {
    const reply = await ask(english, "Wie hoch soll ich das Thermostat an der Wand anbringen?");
    expect(reply).toMatchObject({ status: 200, declined: true, remaining: FREE });
    expect(reply.response).toContain("Dieser Assistent beantwortet Fragen auf English");
    // Passages found by German words in English docs mean nothing: none are shown.
    expect(reply.sources).toEqual([]);
  });

  test("the widget's locale chooses the notice's language; Accept-Language does without one", async () => {
    const question = "Wie hoch soll ich das Thermostat an der Wand anbringen?";
    expect((await ask(english, question, { locale: "fr-CA" })).response).toContain("Cet assistant");
    const response = await fetch(`${english.url}/api/chat`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Forwarded-For": identityAddress(++client),
        "Accept-Language": "es-ES,es;q=0.9",
      },
      body: JSON.stringify({ message: question }),
    });
    expect(((await response.json()) as { response: string }).response).toContain("Este asistente");
  });

  test("a malformed locale is refused with its own message", async () => {
    const reply = await fetch(`${english.url}/api/chat`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": identityAddress(++client) },
      body: JSON.stringify({ message: "How big is the download?", locale: "<script>" }),
    });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: string }).error).toContain("locale");
  });

  test("code and names are in no language: they are asked as they are", async () => {
    const reply = await ask(english, "E4?");
    expect(reply.response).not.toContain("Dieser Assistent");
    expect(reply.response).not.toContain("This assistant answers questions in");
  });
});

describe("docs written in German", () => {
  test("are analysed in German: a German question is answered with its fact", async () => {
    const reply = await ask(german, "Wie laut ist die Maschine beim Mahlen?");
    expect(reply).toMatchObject({ status: 200, declined: false, remaining: FREE - 1 });
    expect(reply.response).toContain("62 dB");
  });

  test("decline what nothing matches", async () => {
    const reply = await ask(german, "Wer schrieb Faust?");
    expect(reply).toMatchObject({ declined: true, remaining: FREE });
  });
});

describe("with a language model (OpenAI-compatible, LLM_BASE_URL)", () => {
  test("a question the rule would decline reaches the model, whose 'not covered' is a free decline", async () => {
    fake.script({ kind: "answer", text: NOT_COVERED });
    const reply = await ask(withModel, "What tyre pressure should I use on my car in winter?");
    expect(systemPrompts()).toHaveLength(1);
    expect(reply).toMatchObject({ status: 200, declined: true, remaining: FREE });
  });

  test("the model's answer is charged", async () => {
    fake.script({ kind: "answer", text: "Mount it 1.5 metres above the floor [1]." });
    const reply = await ask(withModel, "How high on the wall should I put it?");
    expect(reply).toMatchObject({ status: 200, declined: false, remaining: FREE - 1 });
    expect(reply.response).toBe("Mount it 1.5 metres above the floor [1].");
  });

  test("what nothing in the docs matches never reaches the model", async () => {
    const reply = await ask(withModel, "Who wrote Pride and Prejudice?");
    expect(reply).toMatchObject({ declined: true, remaining: FREE });
    expect(fake.requests).toHaveLength(0);
  });

  test("when the model fails, a question only it could judge is declined, not answered without it", async () => {
    fake.script(
      { kind: "status", status: 500 },
      { kind: "status", status: 500 },
      { kind: "status", status: 500 },
    );
    const reply = await ask(withModel, "How do I connect it to my Tesla?");
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(reply).toMatchObject({ status: 200, declined: true, remaining: FREE });
  });

  test("when the translation fails, the visitor reads the notice in their language, free; the model is asked once", async () => {
    fake.script({ kind: "status", status: 500 });
    const reply = await ask(withModel, "Wie lange halten die Batterien im Thermostat?");
    expect(reply).toMatchObject({ status: 200, declined: true, remaining: FREE });
    expect(reply.response).toContain("Dieser Assistent");
    expect(fake.requests).toHaveLength(1);
  });

  test("a German question is translated for retrieval (once) and answered in German", async () => {
    const question = "Wie hoch soll ich das Thermostat an der Wand anbringen?";
    fake.script(
      { kind: "answer", text: "How high should I mount the thermostat on the wall?" },
      { kind: "answer", text: "Montieren Sie es 1,5 Meter über dem Boden [1]." },
    );
    const reply = await ask(withModel, question);
    expect(reply).toMatchObject({ status: 200, declined: false, remaining: FREE - 1 });
    expect(reply.response).toContain("1,5 Meter");
    const [translation, answer] = systemPrompts();
    expect(translation).toContain("into English");
    expect(answer).toContain("write your answer in German");
    // The translated question found the page that answers it.
    expect(reply.sources[0]).toBe("install.md");
    // Asked again: the translation and the answer are both kept.
    fake.reset();
    const again = await ask(withModel, question);
    expect(again.response).toBe(reply.response);
    expect(fake.requests).toHaveLength(0);
  });
});
