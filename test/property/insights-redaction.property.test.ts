/**
 * What the insights keep of a visitor's text: e-mails, keys and long numbers never survive the
 * default pattern, ordinary questions do, the result is bounded, and redaction is idempotent.
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import fc from "fast-check";
import { MAX_QUESTION_CHARS } from "../../core/insights/events.ts";
import { compileRedaction, DEFAULT_REDACTION, REDACTED, redact } from "../../core/insights/redaction.ts";
import { storedText } from "../../core/insights/text.ts";
import { address, txSignature } from "../support/core-arbitraries.ts";

const RUNS = { numRuns: 300 };
const words = fc.array(
  fc.constantFrom(
    "how",
    "do",
    "I",
    "pay",
    "for",
    "the",
    "API",
    "v18.20.1",
    "since 2024",
    "fs.writeFile",
    "¿qué?",
    "naïve",
  ),
  {
    maxLength: 12,
  },
);
const around = (secret: fc.Arbitrary<string>) =>
  fc.tuple(words, secret, words).map(([before, value, after]) => ({
    value,
    text: `${before.join(" ")} ${value} ${after.join(" ")}`,
  }));

const apiKey = fc
  .tuple(fc.constantFrom("sk-", "gsk_", "ghp_", ""), fc.stringMatching(/^[A-Za-z0-9]{20,48}$/))
  .filter(([, body]) => /\d/.test(body) && /[A-Za-z]/.test(body))
  .map(([prefix, body]) => prefix + body);
const longNumber = fc
  .tuple(fc.integer({ min: 7, max: 19 }), fc.constantFrom("", " ", "-"))
  .chain(([length, separator]) =>
    fc
      .array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length })
      .map((digits) =>
        digits
          .map(String)
          .reduce((text, digit, i) => text + (i > 0 && i % 4 === 0 ? separator : "") + digit, ""),
      ),
  );

describe("the default redaction pattern", () => {
  test.each([
    ["e-mail addresses", fc.emailAddress()],
    ["API keys and tokens", apiKey],
    ["wallet addresses", address.filter((a) => /\d/.test(a))],
    ["transaction signatures", txSignature],
    ["long numbers (phone, card, account)", longNumber],
  ] as const)("removes %s wherever they stand", (_, secret) =>
    fc.assert(
      fc.property(around(secret), ({ value, text }) => {
        const kept = redact(text, DEFAULT_REDACTION);
        expect(kept).not.toContain(value);
        expect(kept).toContain(REDACTED);
      }),
      RUNS,
    ),
  );

  test("keeps ordinary questions, versions, years and identifiers as they are", () =>
    fc.assert(
      fc.property(words, (list) => {
        const text = list.join(" ");
        expect(redact(text, DEFAULT_REDACTION)).toBe(text);
      }),
      RUNS,
    ));

  test("is idempotent, and the stored text is bounded and never longer than asked", () =>
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 3000 }), (text) => {
        const once = storedText(text, DEFAULT_REDACTION, MAX_QUESTION_CHARS);
        expect(once.length).toBeLessThanOrEqual(MAX_QUESTION_CHARS);
        expect(redact(once, DEFAULT_REDACTION)).toBe(once);
        // No lone surrogate is left by the cut.
        expect(() => encodeURIComponent(once)).not.toThrow();
      }),
      RUNS,
    ));
});

describe("a configured pattern", () => {
  test("replaces the default; an invalid one is refused; empty matches replace nothing", () => {
    const order = Result.getOrThrow(compileRedaction(String.raw`ORD-\d+`));
    expect(redact("where is ord-123 and joe@example.com", order)).toBe(
      "where is [redacted] and joe@example.com",
    );
    expect(compileRedaction("(unclosed")).toEqual(Result.fail("is not a valid regular expression"));
    const greedyEmpty = Result.getOrThrow(compileRedaction("x*"));
    expect(redact("abc xx d", greedyEmpty)).toBe("abc [redacted] d");
  });
});
