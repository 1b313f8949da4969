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
