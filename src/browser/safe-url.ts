/** Links an answer may carry: http(s) and relative ones only (no javascript:, data:, mailto:...). */
export const safeHref = (
  href: string | null | undefined,
  base: string = location.href,
): string | undefined => {
  if (href === null || href === undefined || href.trim() === "") return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
};
