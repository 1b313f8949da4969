/** Properties of extractive answers over random passages and questions. */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import fc from "fast-check";
import { LIMITS } from "../../adapters/llm-extractive/choose.ts";
import { extractiveGenerator } from "../../adapters/llm-extractive/index.ts";
import { chunk } from "../support/llm-fixtures.ts";

const WORDS = [
  "file",
  "write",
  "read",
  "stream",
  "buffer",
  "path",
  "join",
  "the",
  "a",
  "is",
  "returns",
  "writeFile",
  "fs.readFile()",
  "options",
  "encoding",
  "error",
];
const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 12 })
  .map((words) => `${words.join(" ").replace(/^./, (c) => c.toUpperCase())}.`);
const passage = fc.oneof(
  fc.array(sentence, { minLength: 1, maxLength: 6 }).map((s) => s.join(" ")),
  fc
    .tuple(sentence, fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }))
    .map(([s, code]) => `${s}\n\n\`\`\`js\n${code.join(" ")}\n\`\`\``),
  fc.string({ maxLength: 200 }),
);
const question = fc.oneof(
  fc
    .array(fc.constantFrom(...WORDS, "how", "what", "?"), { minLength: 1, maxLength: 8 })
    .map((w) => w.join(" ")),
  fc.string({ maxLength: 100 }),
);
const squash = (text: string) => text.replace(/\s+/g, " ").trim();

describe("extractive answers, for any passages and question", () => {
  test("cite only listed passages, cited ones first, quote them verbatim, and stay short", () => {
    fc.assert(
      fc.property(fc.array(passage, { minLength: 1, maxLength: 5 }), question, (texts, q) => {
        const chunks = texts.map((text, i) => chunk({ text }, i));
        const answer = Effect.runSync(extractiveGenerator.generate({ question: q, chunks, history: [] }));
        expect(answer.tokensUsed).toBeGreaterThan(0);
        expect(answer.text.length).toBeLessThanOrEqual(LIMITS.answerChars + LIMITS.codeChars + 600);
        // A decline lists every passage it was given; an answer, each passage at most once.
        const listed = answer.listed ?? chunks.map((_, i) => i);
        expect(new Set(listed).size).toBe(listed.length);
        for (const index of listed) expect(chunks[index]).toBeDefined();
        const numbers = [...answer.text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
        for (const n of numbers) {
          expect(n).toBeGreaterThanOrEqual(1);
          expect(n).toBeLessThanOrEqual(listed.length);
        }
        if (answer.text.startsWith("The documentation does not seem to cover")) return;
        // The cited sources come first, in the order first cited: [1], then [2], ...
        expect([...new Set(numbers)]).toEqual(
          numbers.length === 0 ? [] : [...new Set(numbers)].sort((a, b) => a - b),
        );
        expect(Math.max(...numbers)).toBe(new Set(numbers).size);
        for (const m of answer.text.matchAll(/(?<=^|\] |\n)([^[\n][^\n]*?) \[(\d+)\]/g)) {
          const quoted = squash(m[1] ?? "").replace(/…$/, "");
          expect(squash(chunks[listed[Number(m[2]) - 1]!]?.text ?? "")).toContain(quoted);
        }
      }),
      { numRuns: 300 },
    );
  });
});
