/**
 * Light or dark: `data-theme` when given, else the page's own choice (the html element's
 * data-theme or "dark"/"light" class, as Docusaurus, VitePress and others set it), else the
 * system preference. Followed live as either changes.
 */
import type { Theme } from "./widget-settings.ts";

const pageTheme = (): "light" | "dark" | undefined => {
  const html = document.documentElement;
  const attribute = html.dataset.theme ?? html.getAttribute("data-color-scheme");
  if (attribute === "dark" || attribute === "light") return attribute;
  if (html.classList.contains("dark")) return "dark";
  if (html.classList.contains("light")) return "light";
  return undefined;
};

export const followTheme = (host: HTMLElement, theme: Theme) => {
  if (theme !== "auto") return host.setAttribute("theme", theme);
  const system = matchMedia("(prefers-color-scheme: dark)");
  const apply = () => host.setAttribute("theme", pageTheme() ?? (system.matches ? "dark" : "light"));
  apply();
  system.addEventListener("change", apply);
  new MutationObserver(apply).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["class", "data-theme", "data-color-scheme"],
  });
};
