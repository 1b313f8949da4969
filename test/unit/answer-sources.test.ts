/** An answer's sources and citations: the passages it listed, numbered as its [n] cite them. */
import { describe, expect, test } from "bun:test";
import { citedNumbers, citedPassages, listedSources } from "../../core/answers/answer-sources.ts";

const RETRIEVED = ["a", "b", "c", "d", "e"] as const;

describe("answer sources", () => {
  test("an answer that lists passages goes out with those, in its order", () => {
    expect(listedSources({ listed: [3, 0] }, RETRIEVED)).toEqual(["d", "a"]);
  });

  test("an answer that lists none (a model's, a decline) goes out with every passage, in retrieval order", () => {
    expect(listedSources({}, RETRIEVED)).toEqual(RETRIEVED);
  });

  test("a listing naming a passage the generator was not given is not trusted: every passage is listed", () => {
    expect(listedSources({ listed: [0, 5] }, RETRIEVED)).toEqual(RETRIEVED);
    expect(listedSources({ listed: [-1] }, RETRIEVED)).toEqual(RETRIEVED);
    expect(listedSources({ listed: [0.5] }, RETRIEVED)).toEqual(RETRIEVED);
  });

  test("[n] numbers, single and grouped", () => {
    expect([...citedNumbers("A [1]. B [2, 3]. C [1].")]).toEqual([1, 2, 3]);
  });

  test("the cited passages are found through the listing: [1] of a listing [3, 0] is the fourth retrieved", () => {
    expect([...citedPassages({ text: "Quoted [1]. See also: X [2]", listed: [3, 0] }, RETRIEVED)]).toEqual([
      3, 0,
    ]);
    // Without a listing [n] is the n-th retrieved; a number past the list cites nothing.
    expect([...citedPassages({ text: "From [2] and [9]." }, RETRIEVED)]).toEqual([1]);
  });
});
