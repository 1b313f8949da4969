/** The shape every parser (Markdown, HTML, text) produces, before chunking. */

/** A paragraph or list (may be split at lines and sentences) or a code block (never split). */
export type Block =
  | { readonly kind: "prose"; readonly text: string }
  | { readonly kind: "code"; readonly text: string };

/** The blocks under one heading. */
export interface Section {
  /** Heading texts below the page title, outermost first; empty for the top of the page. */
  readonly headings: ReadonlyArray<string>;
  /** URL fragment of this section's heading; "" for the top of the page. */
  readonly anchor: string;
  readonly blocks: ReadonlyArray<Block>;
}

export interface ParsedDocument {
  readonly title: string;
  readonly sections: ReadonlyArray<Section>;
}

interface OpenHeading {
  readonly level: number;
  readonly text: string;
}

/** Where the builder stands, to come back to after a nested part (an API entry list). */
export interface SectionMark {
  readonly stack: ReadonlyArray<OpenHeading>;
  readonly anchor: string;
}

/**
 * Collects the sections of one document as a parser meets headings and blocks. `title` is the
 * page's title, chosen by the parser before it starts (h1, <title>, first heading or file
 * name); the first heading that says the same text (or the first h1) is the page itself, so it
 * opens no section and never repeats in a heading path.
 */
export const sectionBuilder = (title: string) => {
  const sections: Section[] = [];
  const normalise = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();
  let titleSeen = false;
  let stack: OpenHeading[] = [];
  let current: { headings: ReadonlyArray<string>; anchor: string; blocks: Block[] } = {
    headings: [],
    anchor: "",
    blocks: [],
  };
  const open = (next: ReadonlyArray<OpenHeading>, anchor: string) => {
    if (current.blocks.length > 0) sections.push(current);
    stack = [...next];
    current = { headings: stack.map((entry) => entry.text), anchor, blocks: [] };
  };
  return {
    add: (block: Block) => {
      current.blocks.push(block);
    },
    heading: (level: number, text: string, anchor: string) => {
      if (text === "") return;
      if (!titleSeen && (level === 1 || normalise(text) === normalise(title))) {
        titleSeen = true;
        return open([], "");
      }
      open([...stack.filter((entry) => entry.level < level), { level, text }], anchor);
    },
    /** The level of the innermost open heading (0 at the top of the page). */
    level: (): number => stack[stack.length - 1]?.level ?? 0,
    mark: (): SectionMark => ({ stack, anchor: current.anchor }),
    /** Continues the section that was open at `mark` (text after a nested part belongs there). */
    restore: (mark: SectionMark) => {
      if (mark.stack === stack) return;
      open(mark.stack, mark.anchor);
    },
    finish: (): ParsedDocument => {
      if (current.blocks.length > 0) sections.push(current);
      return { title, sections };
    },
  };
};

export type SectionBuilder = ReturnType<typeof sectionBuilder>;

/** Collapses runs of white space (inline text of HTML and Markdown). */
export const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();
