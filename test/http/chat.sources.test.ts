/**
 * The sources a visitor reads with an extractive answer, on a small product site: only the
 * passages related to the question, the cited one first, numbered as the answer cites them, in
 * the JSON reply and in the stream alike (a second `sources` event before any text).
 */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ExtractiveGenerator from "../../adapters/llm-extractive/index.ts";
import { type DocChunk, Retriever } from "../../core/ports/retrieval.ts";
import { testApps } from "../support/test-app.ts";
import { makeSwitches, scriptedRetriever } from "../support/test-layers.ts";

/** The bike lock's three pages: "lock" is on each of them, "weigh" on one. */
const BOREALIS: ReadonlyArray<DocChunk> = [
  ["alarm.md", "Alarm and tracking", "When someone moves the locked bike, the lock sounds a 110 dB alarm."],
  [
    "index.md",
    "Borealis Bike Lock overview",
    "The Borealis Lock is a GPS-tracked bicycle lock. It weighs 1.2 kg and its shackle is 16 mm thick.",
  ],
  ["unlocking.md", "Unlocking the Borealis Lock", "Tap your phone on the lock; the lock opens over NFC."],
].map(([source, title, text]) => ({
  id: source!,
  source: source!,
  title: title!,
  heading: "",
  url: "",
  text: text!,
}));

/** The scripted retriever (its evidence answers), returning the three pages in this order. */
const borealis = Layer.effect(
  Retriever,
  Effect.map(Retriever, (scripted) =>
    Retriever.of({
      ...scripted,
      retrieve: (question, k) =>
        Effect.map(scripted.retrieve(question, k), (found) => ({
          ...found,
          chunks: BOREALIS.map((chunk, i) => ({ ...chunk, score: 1 - i / 10 })),
        })),
    }),
  ),
).pipe(Layer.provide(scriptedRetriever(makeSwitches())));

const build = testApps();
const app = () => build({ retrieval: borealis, generator: ExtractiveGenerator.layer });

const ask = (stream: boolean) =>
  app().call("/api/chat", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: stream ? "text/event-stream" : "application/json",
    },
    body: JSON.stringify({ message: "How much does the lock weigh?" }),
  });

interface Source {
  readonly number: number;
  readonly source: string;
}

describe("the sources of an extractive answer", () => {
  test("JSON: the one page that answers, as [1]; the pages that only say 'lock' are not listed", async () => {
    const body = (await (await ask(false)).json()) as { response: string; sources: ReadonlyArray<Source> };
    expect(body.response).toStartWith("Borealis Bike Lock overview:\n");
    expect(body.response).toContain("It weighs 1.2 kg and its shackle is 16 mm thick. [1]");
    expect(body.response).not.toContain("See also");
    expect(body.response).not.toContain("[2]");
    expect(body.sources.map(({ number, source }) => [number, source])).toEqual([[1, "index.md"]]);
  });

  test("stream: the retrieved pages at once, then the answer's own list before any text, then the same text", async () => {
    const events = (await (await ask(true)).text())
      .split("\n\n")
      .filter((block) => block.trim() !== "")
      .map((block) => ({
        event: /^event: (.*)$/m.exec(block)?.[1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null"),
      }));
    expect(events.map((e) => e.event).slice(0, 3)).toEqual(["sources", "sources", "delta"]);
    const [retrieved, listed] = events.map((e) => (e.data.sources ?? []) as ReadonlyArray<Source>);
    expect(retrieved?.map((s) => s.source)).toEqual(["alarm.md", "index.md", "unlocking.md"]);
    expect(listed?.map(({ number, source }) => [number, source])).toEqual([[1, "index.md"]]);
    const text = events
      .filter((e) => e.event === "delta")
      .map((e) => e.data.text)
      .join("");
    expect(text).toContain("It weighs 1.2 kg and its shackle is 16 mm thick. [1]");
    expect(events.at(-1)?.event).toBe("done");
  });
});
