/**
 * Heading anchors the way GitHub (and the Node.js docs) make them: lower-case, punctuation
 * dropped, spaces to hyphens; a repeated heading gets "-1", "-2", ...
 */
export const slugify = (heading: string): string =>
  heading
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** A slugger for one document: remembers slugs so duplicates get a numeric suffix. */
export const slugger = () => {
  const seen = new Map<string, number>();
  return (heading: string): string => {
    const base = slugify(heading);
    let slug = base;
    let count = seen.get(base) ?? 0;
    while (seen.has(slug)) slug = `${base}-${++count}`;
    seen.set(base, count);
    seen.set(slug, 0);
    return slug;
  };
};
