/** The shape every parser (Markdown, HTML, text) produces, before chunking. */

/** A paragraph or list (may be split at lines and sentences) or a code block (never split). */
export type Block =
  | { readonly kind: "prose"; readonly text: string }
  | { readonly kind: "code"; readonly text: string };

/** The blocks under one heading. */
export interface Section {
  /** Heading texts from the outermost (usually the h1) to this section's own heading. */
  readonly headings: ReadonlyArray<string>;
  /** URL fragment of this section's heading; "" for the top of the page. */
  readonly anchor: string;
  readonly blocks: ReadonlyArray<Block>;
}

export interface ParsedDocument {
  /** First h1, or the file name when there is none. */
  readonly title: string;
  readonly sections: ReadonlyArray<Section>;
}

/** Tracks the open headings so each section gets its full heading path. */
export const headingTracker = () => {
  const stack: Array<{ readonly level: number; readonly text: string }> = [];
  return {
    enter: (level: number, text: string): ReadonlyArray<string> => {
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text });
      return stack.map((entry) => entry.text);
    },
  };
};

/**
 * Collects the sections of one document as a parser meets headings and blocks. The first h1
 * is the page itself: it becomes the title, and its chunks link to the page, not an anchor.
 */
export const sectionBuilder = () => {
  const sections: Section[] = [];
  const headings = headingTracker();
  let title: string | undefined;
  let current: { headings: ReadonlyArray<string>; anchor: string; blocks: Block[] } = {
    headings: [],
    anchor: "",
    blocks: [],
  };
  const close = () => {
    if (current.blocks.length > 0) sections.push(current);
  };
  return {
    add: (block: Block) => {
      current.blocks.push(block);
    },
    heading: (level: number, text: string, anchor: string) => {
      close();
      const isTitle = level === 1 && title === undefined;
      if (isTitle) title = text;
      current = { headings: headings.enter(level, text), anchor: isTitle ? "" : anchor, blocks: [] };
    },
    finish: (fallbackTitle: string): ParsedDocument => {
      close();
      return { title: title ?? fallbackTitle, sections };
    },
  };
};
