/** How the extractive answer chooses across passages: the best sentences anywhere, and what they lead to. */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { extractiveGenerator } from "../../adapters/llm-extractive/index.ts";
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { chunk } from "../support/llm-fixtures.ts";

const ask = async (question: string, chunks: ReadonlyArray<RetrievedChunk>) =>
  (await Effect.runPromise(extractiveGenerator.generate({ question, chunks, history: [] }))).text;

describe("extractive selection across passages", () => {
  test("the sentence that answers is quoted even when a lower-ranked passage holds it", async () => {
    const chunks = [
      chunk({ title: "Indexes", text: "Indexes speed up reads. They cost space on disk." }),
      chunk(
        {
          title: "CREATE INDEX",
          text: "Plain prose here. An index build can run without blocking writes to the table.",
        },
        1,
      ),
    ];
    const answer = await ask("How do I build an index without blocking writes to the table?", chunks);
    expect(answer).toStartWith(
      "CREATE INDEX:\nAn index build can run without blocking writes to the table. [1]",
    );
  });

  test("a definition entry quotes its term with what it does", async () => {
    const chunks = [
      chunk({
        title: "CREATE INDEX",
        heading: "Parameters",
        text: "`UNIQUE`: Causes the system to check for duplicate values.\n\n`CONCURRENTLY`: When this option is used, the index is built without taking locks that prevent concurrent inserts and updates on the table.",
      }),
    ];
    const answer = await ask(
      "Can I build an index without blocking inserts and updates on the table?",
      chunks,
    );
    expect(answer).toContain("`CONCURRENTLY`: When this option is used");
    expect(answer).not.toContain("`UNIQUE`");
  });

  test("the code name the relevant sentences keep mentioning is named in the answer", async () => {
    // Only the first sentence scores near the best; the two below it both point at `ts_rank`.
    const chunks = [
      chunk({
        title: "Ranking",
        text: "Search results are sorted by relevance to the query. Search results use `ts_rank`. Sorting by `ts_rank` gives relevance.",
      }),
    ];
    const answer = await ask("How do I sort search results by relevance?", chunks);
    expect(answer).toContain("Search results are sorted by relevance to the query. [1]");
    expect(answer).toContain("`ts_rank`");
  });

  test("without a code name the relevant sentences share, nothing is added", async () => {
    const chunks = [
      chunk({
        title: "Ranking",
        text: "Search results are sorted by relevance to the query. A `tsvector` is unrelated to this. Planets orbit `stars`.",
      }),
    ];
    const answer = await ask("How do I sort search results by relevance?", chunks);
    expect(answer).toBe("Ranking:\nSearch results are sorted by relevance to the query. [1]");
  });

  test("a quoted sentence that introduces an example brings the example, whole", async () => {
    const example =
      "```\nEXPLAIN SELECT * FROM tenk1;\n Seq Scan on tenk1  (cost=0.00..458.00 rows=10000)\n```";
    const chunks = [
      chunk({
        title: "Using EXPLAIN",
        text: `Here is what the EXPLAIN output for a plan looks like:\n\n${example}\n\nThe numbers are estimates.`,
      }),
    ];
    const answer = await ask("What does the EXPLAIN output for a plan mean?", chunks);
    expect(answer).toContain(`looks like: [1]\n\n${example}\n[1]`);
  });

  test("a sentence going on from a quoted one and naming the option comes with it", async () => {
    const chunks = [
      chunk({
        title: "Building Indexes Concurrently",
        text: "The server can build indexes without locking out writes. This method is invoked by specifying the `CONCURRENTLY` option. Unrelated closing remark about disks.",
      }),
    ];
    const answer = await ask("Can the server build indexes without locking out writes?", chunks);
    expect(answer).toContain(
      "The server can build indexes without locking out writes. [1] This method is invoked by specifying the `CONCURRENTLY` option. [1]",
    );
    expect(answer).not.toContain("Unrelated");
  });

  test("quotes come from at most two passages, each opening with its place", async () => {
    const chunks = [0, 1, 2].map((i) =>
      chunk({ title: `Page ${i}`, text: `Tokens are counted per request on page ${i}.` }, i),
    );
    const answer = (await ask("How are tokens counted per request?", chunks)).split("\n\nSee also: ")[0]!;
    const cited = new Set([...answer.matchAll(/\[(\d+)\]/g)].map((m) => m[1]));
    expect(cited.size).toBeLessThanOrEqual(2);
    for (const n of cited) expect(answer).toContain(`Page ${Number(n) - 1}:\n`);
  });

  test("a passage whose sentences no longer fit the answer is not opened at all", async () => {
    const long = (n: number) => `Tokens are counted per request in case ${n} ${"and so on ".repeat(36)}here.`;
    const chunks = [
      chunk({ title: "First", text: [1, 2, 3].map(long).join(" ") }),
      chunk({ title: "Second", text: long(4) }, 1),
    ];
    const answer = await ask("How are tokens counted per request?", chunks);
    expect(answer).toContain("First:\n");
    expect(answer).not.toContain("Second:\n");
    expect(answer.length).toBeLessThan(1600);
  });

  test("a how question gets the best example of any matching passage, under that passage's place", async () => {
    const example = "```js\nconst gzip = zlib.createGzip();\ninput.pipe(gzip).pipe(output);\n```";
    const chunks = [
      chunk({ title: "Zlib", text: "Compressing a stream of data uses gzip." }),
      chunk({ title: "Zlib examples", heading: "Compressing streams", text: example }, 1),
    ];
    const answer = await ask("How do I gzip a stream of data?", chunks);
    expect(answer).toContain("Zlib:\nCompressing a stream of data uses gzip. [1]");
    expect(answer).toContain(`Zlib examples › Compressing streams:\n${example}\n[2]`);
  });
});
