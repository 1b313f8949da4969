/** The extractive generator: quotes relevant sentences with [n] citations, never invents text. */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";
import { extractiveGenerator } from "../../adapters/llm-extractive/index.ts";
import { estimateTokens } from "../../adapters/shared/token-estimate.ts";
import type { Answer, GenerationInput } from "../../core/ports/generator.ts";
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { chunk, FS_CHUNKS } from "../support/llm-fixtures.ts";

const ask = (question: string, chunks: ReadonlyArray<RetrievedChunk> = FS_CHUNKS) =>
  Effect.runPromise(extractiveGenerator.generate({ question, chunks, history: [] }));

/** The quoted part of an answer, without its closing "See also" line. */
const quotedPart = (text: string) => text.split("\n\nSee also: ")[0] ?? "";

/** The passage an answer's [n] cites: the n-th of the sources it lists. */
const cited = (answer: Answer, n: number, chunks: ReadonlyArray<RetrievedChunk> = FS_CHUNKS) =>
  chunks[answer.listed?.[n - 1] ?? -1];

/** Every "sentence [n]" of an answer, as quoted text and citation number. */
const quotes = (text: string) =>
  [...quotedPart(text).matchAll(/(?<=^|\] |\n)([^[\n][^\n]*?) \[(\d+)\]/g)].map((m) => ({
    text: m[1] ?? "",
    n: Number(m[2]),
  }));
const squash = (text: string) => text.replace(/\s+/g, " ").trim();

describe("extractive generator", () => {
  test("quotes the sentence that answers, cited as the first source it lists: that passage", async () => {
    const answer = await ask("What does fsPromises.readFile return when no encoding is given?");
    expect(answer.text).toContain(
      "If no encoding is specified, the data is returned as a Buffer object. [1]",
    );
    expect(cited(answer, 1)).toBe(FS_CHUNKS[1]);
    expect(quotedPart(answer.text)).not.toContain("[2]");
  });

  test("every citation is in range and its sentence is in that very passage", async () => {
    for (const question of [
      "How do I write a file?",
      "How do I remove a directory?",
      "how does path.join handle empty segments",
      "What is process.env?",
    ]) {
      const answer = await ask(question);
      const found = quotes(answer.text);
      expect(found.length).toBeGreaterThan(0);
      for (const quote of found) {
        expect(quote.n).toBeGreaterThanOrEqual(1);
        expect(quote.n).toBeLessThanOrEqual(answer.listed?.length ?? 0);
        expect(squash(cited(answer, quote.n)?.text ?? "")).toContain(squash(quote.text));
      }
    }
  });

  test("citations number the sources the answer lists, wherever retrieval ranked the passage", async () => {
    const reversed = [...FS_CHUNKS].reverse();
    const answer = await ask("What is process.env?", reversed);
    expect(answer.text).toContain(
      "The process.env property returns an object containing the user environment. [1]",
    );
    expect(cited(answer, 1, reversed)).toBe(FS_CHUNKS[4]);
    expect(answer.text).not.toContain("[5]");
  });

  test("a code example that answers is kept whole, fence and all", async () => {
    const answer = await ask("How do I write a file?");
    expect(answer.text).toContain(
      "```js\nimport { writeFile } from 'node:fs/promises';\nawait writeFile('message.txt', 'Hello Node.js');\n```\n[1]",
    );
  });

  test("code is left out when the question does not ask for a way to do something", async () => {
    const answer = await ask("Is the encoding option ignored for buffers?");
    expect(answer.text).toContain("The encoding option is ignored if data is a buffer. [1]");
    expect(answer.text).not.toContain("```");
  });

  test("a code block longer than the cap is never cut in half", async () => {
    const long = [
      "```js",
      ...Array.from({ length: 200 }, (_, i) => `writeFile('f${i}.txt', data); // line ${i}`),
      "```",
    ];
    const chunks = [chunk({ text: `Use writeFile to write.\n\n${long.join("\n")}` })];
    const answer = await ask("How do I call writeFile?", chunks);
    expect(answer.text).not.toContain("```");
    expect(answer.text).toContain("Use writeFile to write. [1]");
  });

  test("an unclosed fence (cut by the chunker) is closed so it still renders", async () => {
    const chunks = [chunk({ text: "Call connect() to open it.\n\n```ts\nconst db = connect(url);" })];
    const answer = await ask("How do I call connect()?", chunks);
    expect(answer.text).toContain("```ts\nconst db = connect(url);\n```\n[1]");
  });

  test("nothing relevant: says so plainly, quotes nothing, and declines (so it is free)", async () => {
    const answer = await ask("How do I configure a Kubernetes ingress controller?");
    expect(answer.text).toStartWith("The documentation does not seem to cover this question");
    for (const c of FS_CHUNKS)
      for (const sentence of c.text.split(". ")) expect(answer.text).not.toContain(sentence);
    expect(answer.declined).toBe(true);
    expect(answer.tokensUsed).toBeGreaterThan(0);
  });

  test("a question with no content words gets the plain answer too", async () => {
    const answer = await ask("hi?");
    expect(answer.text).toStartWith("The documentation does not seem to cover this question");
    expect(answer.declined).toBe(true);
  });

  test("the answer opens with the place it quotes from, which names the API", async () => {
    const answer = await ask("How do I write a file, replacing it?");
    expect(answer.text).toStartWith("File system › fsPromises.writeFile(file, data[, options]):\n");
    expect(answer.declined).toBeUndefined();
  });

  test("other related sections are named at the end with their numbers, never the quoted ones", async () => {
    const answer = await ask("What does fsPromises.readFile return when no encoding is given?");
    const [, seeAlso = ""] = answer.text.split("\n\nSee also: ");
    expect(seeAlso).toBe("File system › fsPromises.writeFile(file, data[, options]) [2]");
    expect(cited(answer, 2)).toBe(FS_CHUNKS[0]);
  });

  test("sources: the cited passages in citation order, then the other related ones; unrelated ones not listed", async () => {
    // Retrieved: writeFile, readFile, unlink, path.join, process.env. Quoted: readFile; named: writeFile.
    const answer = await ask("What does fsPromises.readFile return when no encoding is given?");
    expect(answer.listed).toEqual([1, 0]);
    // A question only one passage is about lists that one alone.
    expect((await ask("What is process.env?")).listed).toEqual([4]);
  });

  test("a passage holding only the words every page repeats is neither quoted, named nor listed", async () => {
    const lock = (title: string, heading: string, text: string, i: number) =>
      chunk({ title, heading, text, source: `${i}.md` }, i);
    const chunks = [
      lock("Borealis Lock", "Overview", "The Borealis Lock is a bicycle lock. It weighs 1.2 kg.", 0),
      lock("Borealis Lock", "Unlocking", "Tap your phone on the lock to open the lock.", 1),
      lock("Borealis Lock", "Alarm", "The lock sounds an alarm when the locked bike moves.", 2),
    ];
    const answer = await ask("How much does the lock weigh?", chunks);
    expect(answer.text).toContain("It weighs 1.2 kg. [1]");
    expect(answer.text).not.toContain("See also");
    expect(answer.listed).toEqual([0]);
  });

  test("prefers the passage's defining sentence over a bare parameter line, and never cuts a word", async () => {
    const chunks = [
      chunk({
        heading: "crypto.sign(algorithm, data, key)",
        text: "- `key` {Object|string} The signing key.\n\nCalculates and returns the signature for `data` using the given private key and algorithm.",
      }),
      chunk({ text: `The private key ${"word ".repeat(150)}ends here.` }, 1),
    ];
    const answer = await ask("How do I sign data with a private key?", chunks);
    expect(answer.text).toContain(
      "Calculates and returns the signature for `data` using the given private key and algorithm. [1]",
    );
    for (const line of answer.text.split("\n")) expect(line).not.toMatch(/\bwor(?!d)\b/);
  });

  test("headings in passage text are not quoted as sentences", async () => {
    const chunks = [chunk({ text: "## writeFile\n\nwriteFile replaces the file when it exists." })];
    const answer = await ask("What does writeFile do?", chunks);
    expect(answer.text).toBe("Doc 1:\nwriteFile replaces the file when it exists. [1]");
  });

  test("the answer stays short whatever the passages hold", async () => {
    const chunks = Array.from({ length: 5 }, (_, i) =>
      chunk(
        {
          text: Array.from({ length: 40 }, (_, j) => `Tokens are counted per request number ${i}${j}.`).join(
            " ",
          ),
        },
        i,
      ),
    );
    const answer = await ask("How are tokens counted per request?", chunks);
    expect(quotes(answer.text).length).toBeLessThanOrEqual(4);
    expect(answer.text.length).toBeLessThan(1600);
  });

  test("no chunks at all: GenerationFailed, so the query is not charged", async () => {
    const input: GenerationInput = { question: "How do I write a file?", chunks: [], history: [] };
    const error = await Effect.runPromise(Effect.flip(extractiveGenerator.generate(input)));
    expect(error._tag).toBe("GenerationFailed");
    expect(error.message).toContain("no documentation passages");
    const streamed = await Effect.runPromise(
      Effect.flip(Stream.runCollect(extractiveGenerator.stream(input))),
    );
    expect(streamed._tag).toBe("GenerationFailed");
  });

  test("tokensUsed is the documented estimate over question, passages and answer", async () => {
    const question = "How do I write a file?";
    const answer = await ask(question);
    expect(answer.tokensUsed).toBe(estimateTokens([question, ...FS_CHUNKS.map((c) => c.text)], answer.text));
    expect(answer.tokensUsed).toBeGreaterThan(0);
    expect(estimateTokens(["abcd"], "efgh")).toBe(2);
  });

  test("stream: sentence deltas, then one done with the same text as generate", async () => {
    const input: GenerationInput = { question: "What is process.env?", chunks: FS_CHUNKS, history: [] };
    const events = [...(await Effect.runPromise(Stream.runCollect(extractiveGenerator.stream(input))))];
    const whole = await Effect.runPromise(extractiveGenerator.generate(input));
    const deltas = events.filter((e) => e.type === "delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.filter((e) => e.type === "done")).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: "done", answer: whole });
    expect(deltas.map((e) => (e.type === "delta" ? e.text : "")).join("")).toBe(whole.text);
  });
});

describe("extractive generator, a lead found by its heading", () => {
  test("quotes the lead's opening sentence when none of its sentences has the question's words", async () => {
    const chunks = [
      chunk({
        title: "ALTER DEFAULT PRIVILEGES",
        heading: "Description",
        text: "Sets the rights that will be applied to objects created in the future. It does not affect existing objects.",
      }),
    ];
    const answer = await ask("How do I alter default privileges?", chunks);
    expect(answer.text).toStartWith(
      "ALTER DEFAULT PRIVILEGES › Description:\nSets the rights that will be applied to objects created in the future. [1]",
    );
  });
});
