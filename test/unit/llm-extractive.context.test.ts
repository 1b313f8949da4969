/** What comes with a quoted sentence: what it refers back to, what goes on from it, in the docs' language. */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { refersBack } from "../../adapters/llm-extractive/context.ts";
import { extractiveGenerator } from "../../adapters/llm-extractive/index.ts";
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { chunk } from "../support/llm-fixtures.ts";

const ask = async (question: string, chunks: ReadonlyArray<RetrievedChunk>, language?: string) =>
  (await Effect.runPromise(extractiveGenerator.generate({ question, chunks, history: [], language }))).text;

describe("extractive context", () => {
  test("a quoted sentence that refers back brings the sentence it refers to", async () => {
    const chunks = [
      chunk({
        title: "Inbetriebnahme",
        text: "Stellen Sie das Gerät auf eine ebene Fläche. Nach 2 Stunden ohne Bedienung schaltet er sich ab. Diese Zeit lässt sich im Menü einstellen.",
      }),
    ];
    const answer = await ask("Kann man die Zeit im Menü ändern?", chunks, "de");
    expect(answer).toBe(
      "Inbetriebnahme:\nNach 2 Stunden ohne Bedienung schaltet er sich ab. [1] Diese Zeit lässt sich im Menü einstellen. [1]",
    );
  });

  test("the next sentence comes with a quoted one when it refers back to it", async () => {
    const chunks = [
      chunk({
        title: "Pflege",
        text: "Spülen Sie die Brühgruppe einmal pro Woche unter Wasser ab. Sie gehört nicht in die Spülmaschine. Der Behälter fasst 10 Tassen.",
      }),
    ];
    const answer = await ask("Wie oft spüle ich die Brühgruppe?", chunks, "de");
    expect(answer).toContain("Sie gehört nicht in die Spülmaschine. [1]");
    expect(answer).not.toContain("10 Tassen");
  });

  test("the best sentence's passage reads on while its next sentence holds a question term", async () => {
    const text =
      "Tap your card on the reader to pay. If your card is declined, type the code on the receipt. The reader is grey.";
    const answer = await ask("How do I pay at the reader with my card?", [chunk({ title: "Paying", text })]);
    expect(answer).toBe(
      "Paying:\nTap your card on the reader to pay. [1] If your card is declined, type the code on the receipt. [1]",
    );
  });

  test("a sentence brought along never ends in a colon whose example is left out", async () => {
    const text =
      "The net module creates TCP servers and clients. It can be accessed using:\n\n```js\nconst net = require('node:net');\n```";
    const answer = await ask("Which module creates TCP servers and clients?", [
      chunk({ title: "Net", text }),
    ]);
    expect(answer).toBe("Net:\nThe net module creates TCP servers and clients. [1]");
  });

  test("context never displaces a sentence chosen by score: it comes only within the limits", async () => {
    const long = (n: number) => `Tokens are counted per request in case ${n} ${"and so on ".repeat(30)}here.`;
    const text = [1, 2, 3, 4].map((n) => `${long(n)} This is note ${n} about it.`).join(" ");
    const answer = await ask("How are tokens counted per request?", [chunk({ title: "Tokens", text })]);
    for (const n of [1, 2, 3, 4]) expect(answer).toContain(`in case ${n} `);
    expect(answer).not.toContain("This is note");
  });

  test("openers are words of the docs' language, whole, and not articles", () => {
    expect(refersBack("It holds 1.7 litres.", "en")).toBe(true);
    expect(refersBack("Items are listed below.", "en")).toBe(false);
    expect(refersBack("Diese Zeit lässt sich einstellen.", "de")).toBe(true);
    expect(refersBack("Das Gerät ist 24 cm breit.", "de")).toBe(false);
    expect(refersBack("Sie gehört nicht in die Spülmaschine.", "en")).toBe(false);
    expect(refersBack("Tämä asetus on oletus.", "fi")).toBe(true);
    expect(refersBack("This is it.", "xx")).toBe(false);
  });
});
