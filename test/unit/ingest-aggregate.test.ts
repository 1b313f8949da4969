/** Single-page/print versions of a docs set are left out; the pages they repeat are kept. */
import { describe, expect, test } from "bun:test";
import { aggregatePages } from "../../adapters/docs-ingest/aggregate-pages.ts";

const words = (seed: number, count: number) =>
  Array.from({ length: count }, (_, i) => `w${seed}x${(i * 7919 + seed * 104729) % 100003}`).join(" ");

describe("aggregatePages", () => {
  const pages = [words(1, 400), words(2, 400), words(3, 400), words(4, 400)];

  test("a page made of the others is an aggregate; the others are not", () => {
    const all = `Intro ${pages.join(" ")}`;
    expect([...aggregatePages([all, ...pages])]).toEqual([0]);
    expect([...aggregatePages([...pages, all])]).toEqual([4]);
  });

  test("a copy of one page, a page quoting a little of others, and distinct pages are kept", () => {
    expect(aggregatePages([...pages, pages[0]!]).size).toBe(0);
    const quoting = `${words(9, 400)} ${pages[0]!.slice(0, 300)} ${pages[1]!.slice(0, 300)}`;
    expect(aggregatePages([...pages, quoting]).size).toBe(0);
    expect(aggregatePages(pages).size).toBe(0);
    expect(aggregatePages([]).size).toBe(0);
    expect(aggregatePages(["", "short text"]).size).toBe(0);
  });
});

describe("aggregatePages: sibling pages sharing boilerplate", () => {
  test("pages of the same size that share most of their text with several siblings are kept", () => {
    const boilerplate = words(50, 300);
    const siblings = Array.from({ length: 6 }, (_, i) => `${boilerplate} ${words(60 + i, 120)}`);
    expect(aggregatePages(siblings).size).toBe(0);
  });
});
