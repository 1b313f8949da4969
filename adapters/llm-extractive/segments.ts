/**
 * A passage cut into the pieces an extractive answer can quote: prose sentences, list items
 * and table rows one by one, fenced code blocks whole (half a snippet is worse than none).
 */

export interface Segment {
  readonly kind: "sentence" | "code";
  readonly text: string;
  /** Position inside the passage, to keep quoted pieces in reading order. */
  readonly position: number;
}

const FENCE = /^(```|~~~)/;

// A sentence ends at . ! ? followed by space and something that starts a new sentence.
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9`"'([*_])/;

const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

const proseSentences = (paragraph: string): ReadonlyArray<string> => {
  const lines = paragraph.split("\n").filter((line) => line.trim() !== "");
  // List items and table rows stand alone; other lines are wrapped prose.
  const units: string[] = [];
  for (const line of lines) {
    const previous = units.length - 1;
    const standalone = ITEM.test(line) || line.trim().startsWith("|");
    if (standalone || previous < 0 || ITEM.test(units[previous] ?? "")) units.push(line.trim());
    else units[previous] = `${units[previous]} ${line.trim()}`;
  }
  return units.flatMap((unit) => unit.split(SENTENCE_END)).map((s) => s.trim());
};

/** Splits passage text into sentences and whole code blocks. Markdown headings are skipped. */
export const segments = (text: string): ReadonlyArray<Segment> => {
  const out: Segment[] = [];
  const push = (kind: Segment["kind"], piece: string) => {
    const trimmed = kind === "code" ? piece.trimEnd() : piece.trim();
    if (trimmed !== "") out.push({ kind, text: trimmed, position: out.length });
  };
  let prose: string[] = [];
  let code: string[] | undefined;
  const flushProse = () => {
    for (const paragraph of prose.join("\n").split(/\n\s*\n/))
      for (const s of proseSentences(paragraph)) push("sentence", s);
    prose = [];
  };
  for (const line of text.split("\n")) {
    if (code !== undefined) {
      code.push(line);
      if (FENCE.test(line.trim()) && code.length > 1) {
        push("code", code.join("\n"));
        code = undefined;
      }
    } else if (FENCE.test(line.trim())) {
      flushProse();
      code = [line.trim()];
    } else if (/^\s{0,3}#{1,6}\s/.test(line)) {
      flushProse();
    } else {
      prose.push(line);
    }
  }
  // An unclosed fence (the chunker cut the block) is closed so the snippet still renders.
  if (code !== undefined) push("code", `${code.join("\n").trimEnd()}\n${code[0]?.slice(0, 3) ?? "```"}`);
  flushProse();
  return out;
};
